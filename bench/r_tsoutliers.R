# R forecast's tsoutliers on single series, for bench/forecast-outliers.ts.
#
#   Rscript bench/r_tsoutliers.R <list.csv>
#
# list.csv: name,path,period (no header). Prints name,index lines (index from 0), one per outlier, and
# a "done,<name>" line per series so that a series without outliers is told from one that failed.
suppressPackageStartupMessages(library(forecast))
args <- commandArgs(trailingOnly = TRUE)
list <- read.csv(args[1], header = FALSE, col.names = c("name", "path", "period"), stringsAsFactors = FALSE)
for (i in seq_len(nrow(list))) {
  y <- read.csv(list$path[i])$value
  found <- tsoutliers(ts(y, frequency = list$period[i]))$index
  for (k in found) cat(list$name[i], ",", k - 1, "\n", sep = "")
  cat("done,", list$name[i], "\n", sep = "")
}
