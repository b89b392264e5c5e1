#include "queue/replay_series.h"

#include <charconv>

namespace rq::queue {

bool SeriesRow::same_figures(const SeriesRow& o) const {
    return running_jobs == o.running_jobs && busy_cores == o.busy_cores && busy_nodes == o.busy_nodes &&
           pending_jobs == o.pending_jobs && reserved_jobs == o.reserved_jobs && started_jobs == o.started_jobs &&
           finished_jobs == o.finished_jobs;
}

Status ReplaySeries::open(const std::string& path) {
    path_ = path;
    file_.open(path, std::ios::trunc);
    if (!file_) return make_error(Errc::kIo, "--replay-series: cannot open " + path + " for writing");
    file_ << kSeriesHeader << '\n';
    return ok_status();
}

void ReplaySeries::job_started(int64_t cores) {
    ++started_;
    busy_cores_ += cores;
}

void ReplaySeries::job_finished(int64_t cores) {
    ++finished_;
    busy_cores_ -= cores;
}

void ReplaySeries::observe(int64_t time, int64_t pending, int64_t reserved, int64_t busy_nodes) {
    if (observed_ && time != current_.time && !current_.same_figures(written_)) write(current_);
    observed_ = true;
    current_.time = time;
    current_.running_jobs = started_ - finished_;
    current_.busy_cores = busy_cores_;
    current_.busy_nodes = busy_nodes;
    current_.pending_jobs = pending;
    current_.reserved_jobs = reserved;
    current_.started_jobs = started_;
    current_.finished_jobs = finished_;
}

void ReplaySeries::write(const SeriesRow& row) {
    written_ = row;
    if (!file_.is_open()) return;
    // to_chars: the series can be millions of rows.
    char buf[8 * 21 + 8];
    char* p = buf;
    char* end = buf + sizeof buf;
    for (int64_t v : {row.time, row.running_jobs, row.busy_cores, row.busy_nodes, row.pending_jobs,
                      row.reserved_jobs, row.started_jobs, row.finished_jobs}) {
        if (p != buf) *p++ = ',';
        p = std::to_chars(p, end, v).ptr;
    }
    *p++ = '\n';
    file_.write(buf, p - buf);
}

Status ReplaySeries::close() {
    if (observed_ && !current_.same_figures(written_)) write(current_);
    observed_ = false;
    if (!file_.is_open()) return ok_status();
    file_.flush();
    if (!file_) return make_error(Errc::kIo, "--replay-series: error writing " + path_);
    file_.close();
    return ok_status();
}

}  // namespace rq::queue
