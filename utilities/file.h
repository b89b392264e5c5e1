// Reading a whole input file into a string, bounded: each kind of file has
// a size limit (docs/formats.md "Limits on input files"), only regular files and pipes
// are read, and a pipe that stays silent is given up on instead of hanging
// the session.
#pragma once

#include <cstdint>
#include <string>

namespace rq {

// What a file is read as; each kind has its own limit.
enum class FileKind {
    kGraph,    // -L recipes and graphs, attach JGF, update/partial-cancel R: 1 GiB
    kJobspec,  // match, submit, cat: 64 MiB
    kTrace,    // --replay job lists and SWF traces: 1 GiB
    kConfig,   // -Q queue definitions: 64 MiB
};

uint64_t file_limit(FileKind kind);
// "a graph", "a jobspec", ... for messages.
const char* file_kind_name(FileKind kind);

// Seconds a pipe (FIFO) may stay silent before its read is given up.
inline constexpr int kPipeSilenceSeconds = 10;

// Replaces `text` with the contents of `path`; false if it cannot be read.
// Refused: directories, character and block devices (/dev/zero), files
// larger than file_limit(kind), a pipe silent for kPipeSilenceSeconds, and
// a file this process has no memory to hold (never a std::bad_alloc).
// Opening never blocks: a FIFO is opened with O_NONBLOCK and checked with
// fstat first. Reuses `text`'s capacity, which matters when a script
// matches the same jobspec thousands of times. On failure `why`, if given,
// receives the reason ("Is a directory", "larger than the 64 MiB limit
// for a jobspec", ...), without the path.
bool read_file(const std::string& path, std::string& text, std::string* why = nullptr,
               FileKind kind = FileKind::kGraph);

// For a file read line by line instead of whole (an SWF trace): the
// reason it is not read (not a regular file, larger than file_limit(kind),
// or the C library's reason it cannot be opened), or "" if it can be.
// Checked with stat(), so it never blocks on a FIFO.
std::string streamed_file_problem(const std::string& path, FileKind kind);

}  // namespace rq
