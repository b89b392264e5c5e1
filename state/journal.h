// The session journal: every state-changing command line a session ran,
// with the contents of the files it read and the timings it measured, in
// order. Replaying it on the same start graph rebuilds the session exactly
// (see README "Saving and resuming a session").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace rq::state {

inline constexpr int64_t kUnreadable = -1;  // an input the command could not read

struct Input {
    std::string path;
    int64_t blob = kUnreadable;  // id in the journal's blob table
};

struct Entry {
    std::string line;                 // the command, tokens joined by one space
    std::vector<Input> inputs;        // files read, in reading order
    std::string timing;               // measured times (see timing.h)
    std::vector<int64_t> touched_jobs;  // job ids created or changed
};

class Journal {
public:
    // The id of `text` in the blob table (added if new; equal contents
    // share one id, scripts read the same jobspec thousands of times).
    int64_t intern(const std::string& text);
    // Adds a blob read back from a file with its id (must be size()).
    void add_blob(std::string text) { intern(text); }
    const std::string& blob(int64_t id) const { return *blobs_[static_cast<size_t>(id)]; }
    size_t blob_count() const { return blobs_.size(); }

    std::vector<Entry> entries;

private:
    std::unordered_map<std::string, int64_t> index_;
    std::vector<const std::string*> blobs_;  // keys of index_, stable
};

}  // namespace rq::state
