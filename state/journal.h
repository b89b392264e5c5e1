// The session journal: every state-changing command line a session ran,
// with the contents of the files it read and the timings it measured, in
// order. Replaying it on the same start graph rebuilds the session exactly
// (see docs/state.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "state/timing.h"

namespace rq::state {

inline constexpr int64_t kUnreadable = -1;  // an input the command could not read
inline constexpr int64_t kPending = -2;     // read, not yet interned (never saved)

struct Input {
    std::string path;
    int64_t blob = kUnreadable;  // id in the journal's blob table
};

struct Entry {
    std::string line;                 // the command, tokens joined by one space
    std::vector<Input> inputs;        // files read, in reading order
    Timing timing;                    // measured times (state/timing.h)
    std::vector<int64_t> touched_jobs;  // job ids created or changed
};

// The entries of a journal, each kept as a few bytes in chunked storage
// (a session of 100,000 matches journals 100,000 entries; as separate
// strings and vectors they cost ~270 bytes each, here ~50: a repeated line
// refers to its first copy, a timing's numbers are stored raw; see
// entry_log.cc). Reading an entry decodes a copy; nothing hands out
// references into the storage.
class EntryLog {
public:
    void push_back(const Entry& e);
    // Appends an input to entry i (used when reading a saved journal).
    void add_input(size_t i, Input in);
    size_t size() const { return where_.size(); }
    bool empty() const { return where_.empty(); }
    Entry operator[](size_t i) const;

    class const_iterator {
    public:
        const_iterator(const EntryLog* log, size_t i) : log_(log), i_(i) {}
        Entry operator*() const { return (*log_)[i_]; }
        const_iterator& operator++() { return ++i_, *this; }
        bool operator!=(const const_iterator& o) const { return i_ != o.i_; }
        bool operator==(const const_iterator& o) const { return i_ == o.i_; }

    private:
        const EntryLog* log_;
        size_t i_;
    };
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size()); }

private:
    static constexpr size_t kChunk = 1 << 16;
    void append(const std::string& bytes, size_t i);
    uint32_t path_id(const std::string& path);

    std::vector<std::string> chunks_;   // encoded entries, none split across chunks
    std::vector<uint64_t> where_;       // per entry: chunk << 32 | offset
    std::vector<std::string> paths_;    // distinct input paths
    std::unordered_map<std::string, uint32_t> path_index_;
    // The last line written out in full and where its entry starts, so
    // that the entries repeating it refer to it.
    std::string last_line_;
    uint64_t last_line_at_ = 0;
    bool has_last_line_ = false;
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

    EntryLog entries;

private:
    std::unordered_map<std::string, int64_t> index_;
    std::vector<const std::string*> blobs_;  // keys of index_, stable
};

}  // namespace rq::state
