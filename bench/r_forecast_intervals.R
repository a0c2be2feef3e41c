# Reference prediction intervals of R's forecast package on the competition holdouts
# (PROTOCOL.md §3): ets = forecast(ets(x), h, level), arima = forecast(auto.arima(x), h, level),
# theta = thetaf(x, h, level), and comb = the mean of the three (means and interval bounds averaged,
# the usual way to put intervals on this combination). Same rules as the reference: with m > 24 ets
# ignores seasonality and auto.arima is non-seasonal.
#
#   Rscript bench/r_forecast_intervals.R <benchdata dir> <out dir> [collections=m3,m1,tourism] [stride=1] [periods=all]
#
# stride k keeps every k-th series of each collection and period (in the meta file's order), since the
# full run costs R about two CPU hours (auto.arima). One CSV per collection, <out>/<coll>_s<k>.csv:
# series_id,method,level,k,mean,lower,upper (level in percent, k = 1..h). bench:forecast reads them.
# periods (e.g. yearly,quarterly) limits the run to those periods, written to <coll>_s<k>_<periods>.csv,
# so that the cheap periods can be run in full and the monthly ones (most of the cost) at a stride.
suppressPackageStartupMessages(library(forecast))

args <- commandArgs(trailingOnly = TRUE)
root <- args[1]
out <- args[2]
colls <- if (length(args) >= 3) strsplit(args[3], ",")[[1]] else c("m3", "m1", "tourism")
stride <- if (length(args) >= 4) as.integer(args[4]) else 1L
only_periods <- if (length(args) >= 5) strsplit(args[5], ",")[[1]] else NULL
levels <- c(50, 80, 90, 95)
dir.create(out, showWarnings = FALSE, recursive = TRUE)

rows_of <- function(id, method, mean, lower, upper) {
  do.call(rbind, lapply(seq_along(levels), function(j) data.frame(
    series_id = id, method = method, level = levels[j], k = seq_along(mean),
    mean = as.numeric(mean), lower = as.numeric(lower[, j]), upper = as.numeric(upper[, j]))))
}

for (coll in colls) {
  meta <- read.csv(file.path(root, "forecast", coll, paste0(coll, "_meta.csv")), stringsAsFactors = FALSE)
  meta$period <- tolower(meta$period)
  suffix <- if (is.null(only_periods)) "" else paste0("_", paste(only_periods, collapse = "-"))
  target <- file.path(out, sprintf("%s_s%d%s.csv", coll, stride, suffix))
  parts <- list()
  for (p in unique(meta$period)) {
    if (!is.null(only_periods) && !(p %in% only_periods)) next
    train <- read.csv(file.path(root, "forecast", coll, sprintf("%s_%s_train.csv", coll, p)), stringsAsFactors = FALSE)
    ids <- unique(train$series_id)
    ids <- ids[seq(1, length(ids), by = stride)]
    for (id in ids) {
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
      parts[[length(parts) + 1]] <- rbind(
        rows_of(id, "ets", fe$mean, fe$lower, fe$upper),
        rows_of(id, "comb", comb_mean, comb_lower, comb_upper))
    }
    cat(coll, p, length(ids), "series\n")
  }
  write.csv(do.call(rbind, parts), target, row.names = FALSE)
}
