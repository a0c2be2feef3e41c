/**
 * The English stop-word list of text features: function words that say little about a document's
 * class on their own (the classic SMART/NLTK core list). Negations ("not", "no", "nor", "never",
 * "n't" forms) are deliberately absent: "not good" must stay apart from "good", and the bigrams
 * that carry that difference are only formed from the words that remain.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'about', 'above', 'after', 'again', 'against', 'all', 'am', 'an', 'and', 'any', 'are', 'as', 'at',
  'be', 'because', 'been', 'before', 'being', 'below', 'between', 'both', 'but', 'by',
  'can', 'could', 'did', 'do', 'does', 'doing', 'down', 'during', 'each', 'few', 'for', 'from', 'further',
  'had', 'has', 'have', 'having', 'he', "he'd", "he'll", "he's", 'her', 'here', "here's", 'hers', 'herself',
  'him', 'himself', 'his', 'how', "how's", 'i', "i'd", "i'll", "i'm", "i've", 'if', 'in', 'into', 'is', 'it',
  "it's", 'its', 'itself', "let's", 'me', 'more', 'most', 'my', 'myself', 'of', 'off', 'on', 'once', 'only',
  'or', 'other', 'ought', 'our', 'ours', 'ourselves', 'out', 'over', 'own', 'same', 'she', "she'd", "she'll",
  "she's", 'should', 'so', 'some', 'such', 'than', 'that', "that's", 'the', 'their', 'theirs', 'them',
  'themselves', 'then', 'there', "there's", 'these', 'they', "they'd", "they'll", "they're", "they've",
  'this', 'those', 'through', 'to', 'too', 'under', 'until', 'up', 'very', 'was', 'we', "we'd", "we'll",
  "we're", "we've", 'were', 'what', "what's", 'when', "when's", 'where', "where's", 'which', 'while', 'who',
  "who's", 'whom', 'why', "why's", 'will', 'with', 'would', 'you', "you'd", "you'll", "you're", "you've",
  'your', 'yours', 'yourself', 'yourselves', 'also', 'just', 'us', 'said',
]);
