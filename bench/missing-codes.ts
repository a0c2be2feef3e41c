/**
 * How often the check of codes for a missing value (src/domain/missing-codes.ts: -9999, 999, a negative
 * among non-negatives, repeated at a column's extreme and further from the other values than their
 * range) fires on real data, where it should fire almost never: every numeric column of every CSV file
 * under the shared benchmark data, or under the folders given.
 *
 *   npm run bench:missing-codes [-- DIR …]
 *
 * R's own data sets, exported to CSV (one file per data frame of at least 12 rows):
 *
 *   mkdir -p /tmp/rdata && cd /tmp/rdata && Rscript -e 'for (p in c("datasets","MASS","nlme","survival","rpart","boot","lattice","cluster","mgcv")) { if (!requireNamespace(p, quietly=TRUE)) next; for (d in data(package=p)$results[, "Item"]) { n <- sub(" .*", "", d); e <- new.env(); x <- tryCatch({ data(list=n, package=p, envir=e); get(n, envir=e) }, error=function(err) NULL); if (is.data.frame(x) && nrow(x) >= 12) write.csv(x, paste0(p, "_", n, ".csv"), row.names=FALSE) } }'
 *
 * 2026-11-29: shared benchmark data 0 of 1,183 numeric columns; statsmodels' and scikit-learn's
 * bundled data 0 of 289; R's datasets, MASS, survival, rpart, boot, lattice, cluster, nlme and mgcv 1 of
 * 1,032 — rpart's car90 RearShld, where -2 marks the five two-seaters (a real code).
 */
import { benchdata } from './lib/benchdata.js';
import { numericColumns } from './lib/numeric-columns.js';
import { ExtremeTally, missingCode } from '../src/domain/missing-codes.js';

const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const dir of dirs.length > 0 ? dirs : [benchdata().dir]) {
  const columns = numericColumns(dir);
  const flagged = columns.flatMap((c) => {
    const code = missingCode(ExtremeTally.of(c.values));
    return code ? [{ ...c, code }] : [];
  });
  console.log(`${dir}: ${flagged.length} of ${columns.length} numeric columns hold a code for a missing value`);
  for (const f of flagged) {
    console.log(`  ${f.file.slice(dir.length + 1)} ${f.name}: ${f.code.value} in ${f.code.count} of ${f.code.present} rows, the others ${f.code.othersLow} to ${f.code.othersHigh}`);
  }
}
