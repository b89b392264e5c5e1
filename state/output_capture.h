// The output of a command held back until it is committed (README
// "Saving and resuming a session", Durability: output printed implies
// committed).
#pragma once

#include <iostream>
#include <sstream>
#include <streambuf>

#include "session/session.h"

namespace rq::state {

// Redirects stdout, stderr and the -t file into buffers while a command
// runs; release() prints them (after the command was committed).
class Capture {
public:
    explicit Capture(Session& s) : s_(s) {
        out_ = std::cout.rdbuf(out_buf_.rdbuf());
        err_ = std::cerr.rdbuf(err_buf_.rdbuf());
        if (s.test_output.is_open()) test_ = static_cast<std::ostream&>(s.test_output).rdbuf(test_buf_.rdbuf());
    }
    ~Capture() { release(); }
    // Restores the streams without printing what was held back.
    void discard() {
        if (done_) return;
        done_ = true;
        restore();
    }
    void release() {
        if (done_) return;
        done_ = true;
        restore();
        std::cout << out_buf_.str();
        if (test_ != nullptr) s_.test_output << test_buf_.str();
        std::cout.flush();
        std::cerr << err_buf_.str();
    }

private:
    void restore() {
        std::cout.rdbuf(out_);
        std::cerr.rdbuf(err_);
        if (test_ != nullptr) static_cast<std::ostream&>(s_.test_output).rdbuf(test_);
    }

    Session& s_;
    std::ostringstream out_buf_, err_buf_, test_buf_;
    std::streambuf* out_ = nullptr;
    std::streambuf* err_ = nullptr;
    std::streambuf* test_ = nullptr;
    bool done_ = false;
};

}  // namespace rq::state
