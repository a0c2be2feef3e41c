# Reference prediction intervals of R's forecast package on the competition holdouts
# (PROTOCOL.md §3): ets = forecast(ets(x), h, level), arima = forecast(auto.arima(x), h, level),
# theta = thetaf(x, h, level), and comb = the mean of the three (means and interval bounds averaged,
# the usual way to put intervals on this combination). Same rules as the reference: with m > 24 ets
# ignores seasonality and auto.arima is non-seasonal.
#
#   Rscript bench/r_forecast_intervals.R <benchdata dir> <out dir> [collections=m3,m1,tourism] [stride=1] [periods=all] [shard=1/1]
#
# stride k keeps every k-th series of each collection and period (in the meta file's order), since the
# full run costs R hours (auto.arima on the monthly series most of it; measured CPU s per series: M3
# monthly 2.9, tourism monthly 1.2, M3 quarterly 0.23, yearly and other 0.07). One CSV per
# collection, <out>/<coll>_s<k>.csv: series_id,method,level,k,mean,lower,upper (level in percent,
# k = 1..h). bench:forecast reads every <coll>_s*.csv in <out>.
# periods (e.g. yearly,quarterly) limits the run to those periods, written to <coll>_s<k>_<periods>.csv,
# so that the cheap periods can be run in full and the monthly ones (most of the cost) on their own.
# shard i/n keeps the i-th of every n of the series left after the stride (written to
# ..._shard<i>of<n>.csv), so that one long run can be split into pieces run at different times; with
# stride 1, shard 1/4 holds the series bench:forecast -- --stride 4 runs (every 4th of each period).
#
# The CSV is written as it goes, one series at a time, and a run skips the series that its CSV or any
# other <coll>_s<k>*.csv in <out> holds in full: an interrupted run is resumed by starting it again with
# the same arguments, and a shard does not redo what an earlier run of the period did. "done" lines on
# stdout say when a collection is complete.
suppressPackageStartupMessages(library(forecast))

args <- commandArgs(trailingOnly = TRUE)
root <- args[1]
out <- args[2]
colls <- if (length(args) >= 3) strsplit(args[3], ",")[[1]] else c("m3", "m1", "tourism")
stride <- if (length(args) >= 4) as.integer(args[4]) else 1L
only_periods <- if (length(args) >= 5 && args[5] != "all") strsplit(args[5], ",")[[1]] else NULL
shard <- if (length(args) >= 6) as.integer(strsplit(args[6], "/")[[1]]) else c(1L, 1L)
levels <- c(50, 80, 90, 95)
methods <- c("ets", "comb")
dir.create(out, showWarnings = FALSE, recursive = TRUE)

rows_of <- function(id, method, mean, lower, upper) {
  do.call(rbind, lapply(seq_along(levels), function(j) data.frame(
    series_id = id, method = method, level = levels[j], k = seq_along(mean),
    mean = as.numeric(mean), lower = as.numeric(lower[, j]), upper = as.numeric(upper[, j]))))
}

# Series of an existing CSV that it holds in full (every method, level and step up to h); with rewrite,
# the file is rewritten with those alone, dropping a series cut short by an interrupted run.
complete_ids <- function(file, meta, rewrite) {
  if (!file.exists(file) || file.info(file)$size == 0) return(character(0))
  old <- tryCatch(read.csv(file, stringsAsFactors = FALSE), error = function(e) NULL)
  if (is.null(old) || nrow(old) == 0) return(character(0))
  old <- old[complete.cases(old[, c("series_id", "method", "level", "k", "upper")]), ]
  counts <- table(old$series_id)
  h <- meta$h[match(names(counts), meta$series_id)]
  done <- names(counts)[!is.na(h) & as.integer(counts) == h * length(levels) * length(methods)]
  if (rewrite) write.csv(old[old$series_id %in% done, ], file, row.names = FALSE)
  done
}

for (coll in colls) {
  meta <- read.csv(file.path(root, "forecast", coll, paste0(coll, "_meta.csv")), stringsAsFactors = FALSE)
  meta$period <- tolower(meta$period)
  suffix <- if (is.null(only_periods)) "" else paste0("_", paste(only_periods, collapse = "-"))
  if (shard[2] > 1) suffix <- sprintf("%s_shard%dof%d", suffix, shard[1], shard[2])
  target <- file.path(out, sprintf("%s_s%d%s.csv", coll, stride, suffix))
  own <- complete_ids(target, meta, TRUE)
  fresh <- !file.exists(target) || length(own) == 0
  others <- setdiff(list.files(out, pattern = sprintf("^%s_s%d(_.*)?[.]csv$", coll, stride), full.names = TRUE), target)
  done <- unique(c(own, unlist(lapply(others, complete_ids, meta = meta, rewrite = FALSE))))
  for (p in unique(meta$period)) {
    if (!is.null(only_periods) && !(p %in% only_periods)) next
    train <- read.csv(file.path(root, "forecast", coll, sprintf("%s_%s_train.csv", coll, p)), stringsAsFactors = FALSE)
    ids <- unique(train$series_id)
    ids <- ids[seq(1, length(ids), by = stride)]
    ids <- ids[seq_along(ids) %% shard[2] == shard[1] %% shard[2]]
    todo <- setdiff(ids, done)
    cpu <- 0
    for (id in todo) {
      t0 <- proc.time()
      info <- meta[meta$series_id == id, ]
      m <- info$frequency
      h <- info$h
      x <- ts(train$value[train$series_id == id], frequency = m)
      xe <- if (m > 24) ts(as.numeric(x), frequency = 1) else x
      fe <- tryCatch(forecast(ets(xe), h = h, level = levels), error = function(e) naive(x, h = h, level = levels))
      fa <- tryCatch(forecast(if (m > 24) auto.arima(x, seasonal = FALSE) else auto.arima(x), h = h, level = levels),
                     error = function(e) naive(x, h = h, level = levels))
      ft <- tryCatch(thetaf(x, h = h, level = levels), error = function(e) naive(x, h = h, level = levels))
      comb_mean <- (fe$mean + fa$mean + ft$mean) / 3
      comb_lower <- (fe$lower + fa$lower + ft$lower) / 3
      comb_upper <- (fe$upper + fa$upper + ft$upper) / 3
      rows <- rbind(
        rows_of(id, "ets", fe$mean, fe$lower, fe$upper),
        rows_of(id, "comb", comb_mean, comb_lower, comb_upper))
      write.table(rows, target, sep = ",", row.names = FALSE, col.names = fresh, append = !fresh, qmethod = "double")
      fresh <- FALSE
      used <- proc.time() - t0
      cpu <- cpu + used[["user.self"]] + used[["sys.self"]]
    }
    cat(coll, p, length(ids), "series,", length(ids) - length(todo), "already done,", sprintf("%.1f CPU s", cpu), "\n")
  }
  cat("done", coll, target, "\n")
}
