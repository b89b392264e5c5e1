// --json: turns the text a command printed into one JSON value per line,
// so that `resource-query --json ... | jq` works. The commands keep
// printing their usual text; a JsonCapture collects it per stream and
// converts it when the command is done.
#pragma once

#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace rq {

// Converts the text printed on an output stream:
//   * an `INFO: ====...` block becomes one object, its `KEY=VALUE` lines
//     as "key": value (keys lower-cased, blanks as '_', numbers as
//     numbers) and its other lines under "messages"; the writer output
//     just before the block goes under "output" (a JSON value when it
//     parses as JSON: -F jgf, rv1, ...; else the text as a string);
//   * a lone `INFO:` line becomes {"job": {...}} (list, info),
//     {"command": ...} (help), {"key": value} for `Key: value`, else
//     {"info": "text"};
//   * any other run of lines becomes {"output": value-or-string}.
std::string json_lines_from_output(const std::string& text);

// Converts the text printed on stderr: one {"error": "line"} per
// non-empty line.
std::string json_lines_from_errors(const std::string& text);

// While alive, what is written to each of `streams` is kept; flush()
// converts it (streams[0] as errors, the others as output) and writes it
// to the stream's real destination. The destructor flushes and puts the
// streams back.
class JsonCapture {
public:
    explicit JsonCapture(std::vector<std::ostream*> streams);
    ~JsonCapture();
    JsonCapture(const JsonCapture&) = delete;
    JsonCapture& operator=(const JsonCapture&) = delete;
    void flush();

private:
    struct Captured {
        std::ostream* stream;
        std::streambuf* original;
        std::stringbuf buffer;
    };
    std::vector<Captured> captured_;
};

}  // namespace rq
