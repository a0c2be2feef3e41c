"""Reference for bench:text: scikit-learn tf-idf (1-2-grams, English stop words, sublinear tf) +
LogisticRegression (C by 5-fold CV on the training rows) on the split Sibyl's session drew.
Usage: sklearn_text.py FIXTURE.csv SPLIT.json  → prints {"auc":…, "accuracy":…}"""
import json, sys
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegressionCV
from sklearn.metrics import roc_auc_score, accuracy_score
from sklearn.pipeline import make_pipeline

data = pd.read_csv(sys.argv[1], keep_default_na=False)
split = json.load(open(sys.argv[2]))
train, test = data.iloc[split["train"]], data.iloc[split["test"]]
model = make_pipeline(
    TfidfVectorizer(ngram_range=(1, 2), stop_words="english", sublinear_tf=True, min_df=2),
    LogisticRegressionCV(Cs=10, cv=5, class_weight="balanced", max_iter=2000),
)
model.fit(train["review"], train["score"])
classes = list(model.classes_)
proba = model.predict_proba(test["review"])[:, classes.index("other")]
auc = roc_auc_score((test["score"] == "other").astype(int), proba)
print(json.dumps({"auc": auc, "accuracy": accuracy_score(test["score"], model.predict(test["review"]))}))
