// Result<T>: a value or an error with a message, used everywhere a thing
// can fail so that error text travels to the user intact (no exceptions
// across layers, no errno side channel).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace rq {

// Error categories. The traverser's behaviour (and the CLI's choice of
// messages) depends on *why* a match failed, exactly like the reference's
// errno values; these are the ones it distinguishes.
enum class Errc {
    kOk = 0,
    kInvalid,        // EINVAL: malformed request or argument
    kBusy,           // EBUSY: resources exist but are taken now
    kUnsatisfiable,  // ENODEV: can never be satisfied on this graph
    kNotFound,       // ENOENT: no such thing (file, id, time candidate)
    kRange,          // ERANGE: a quantity beyond what exists
    kExists,         // EEXIST: duplicate
    kNoMemory,       // ENOMEM
    kIo,             // file could not be read or written
};

// The C library's wording for the codes the CLI prints ("Invalid
// argument", ...), so messages stay byte-identical to the reference.
const char* errc_text(Errc code);

struct Error {
    Errc code = Errc::kInvalid;
    std::string message;
    // What the message leaves out (the file, the line, the offending
    // value), for errors whose message must keep the reference's exact
    // words; the CLI prints it on a line of its own. Often empty.
    std::string detail;
};

inline Error make_error(Errc code, std::string message = {}, std::string detail = {}) {
    return Error{code, std::move(message), std::move(detail)};
}

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : data_(std::move(value)) {}
    Result(Error error) : data_(std::move(error)) {}

    bool ok() const { return data_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { assert(ok()); return std::get<0>(data_); }
    const T& value() const& { assert(ok()); return std::get<0>(data_); }
    T&& value() && { assert(ok()); return std::get<0>(std::move(data_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { assert(!ok()); return std::get<1>(data_); }
    Errc code() const { return ok() ? Errc::kOk : error().code; }
    const std::string& message() const { return error().message; }

private:
    std::variant<T, Error> data_;
};

// Result<void>: success or an error.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {}

    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const { assert(!ok_); return error_; }
    Errc code() const { return ok_ ? Errc::kOk : error_.code; }
    const std::string& message() const { return error_.message; }

private:
    Error error_;
    bool ok_ = true;
};

using Status = Result<void>;

inline Status ok_status() { return Status(); }

}  // namespace rq

// Propagate an error from an expression returning Result<...>/Status.
#define RQ_TRY(expr)                                        \
    do {                                                    \
        auto rq_try_result_ = (expr);                       \
        if (!rq_try_result_.ok()) return rq_try_result_.error(); \
    } while (0)
