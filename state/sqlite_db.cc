#include "state/sqlite_db.h"

#include <cctype>
#include <cerrno>
#include <cstring>

namespace rq::state {

Status Database::open(const std::string& path, bool create) {
    close();
    path_ = path;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        Error e = error("open");
        close();
        return e;
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 2000);
    return ok_status();
}

namespace {

// `path` as a file: URI (RFC 3986 percent-encoding of what is not plain).
std::string file_uri(const std::string& path) {
    static const char digits[] = "0123456789ABCDEF";
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (std::isalnum(c) || std::strchr("/-._~", c) != nullptr) {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += digits[c >> 4];
            uri += digits[c & 15];
        }
    }
    return uri;
}

}  // namespace

Status Database::open_immutable(const std::string& path) {
    close();
    path_ = path;
    std::string uri = file_uri(path) + "?immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
        Error e = error("open");
        close();
        return e;
    }
    sqlite3_extended_result_codes(db_, 1);
    return ok_status();
}

void Database::close() {
    cache_.clear();
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = nullptr;
}

// SQLite's words, and for a failed read or write (a full disk, an I/O
// error) the system's: "database or disk is full (No space left on device)".
std::string Database::explained(const std::string& message) const {
    if (db_ == nullptr) return message;
    int code = sqlite3_errcode(db_) & 0xff;
    // SQLite's unix layer answers SQLITE_FULL for ENOSPC (and records no
    // errno for it); for an I/O error it keeps the errno.
    if (code == SQLITE_FULL) return message + " (" + std::strerror(ENOSPC) + ")";
    int system = sqlite3_system_errno(db_);
    if (system == 0 || (code != SQLITE_IOERR && code != SQLITE_CANTOPEN)) return message;
    return message + " (" + std::strerror(system) + ")";
}

Error Database::error(const std::string& what) const {
    std::string message = db_ != nullptr ? explained(sqlite3_errmsg(db_)) : "out of memory";
    return make_error(Errc::kInvalid, path_ + ": " + what + ": " + message);
}

Status Database::exec(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return ok_status();
    std::string text = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    return make_error(Errc::kInvalid, path_ + ": " + explained(text));
}

Result<Statement> Database::prepare(std::string_view sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK)
        return error("prepare");
    return Statement(this, stmt);
}

Result<Statement*> Database::cached(const std::string& sql) {
    auto it = cache_.find(sql);
    if (it == cache_.end()) {
        auto stmt = prepare(sql);
        if (!stmt) return stmt.error();
        it = cache_.emplace(sql, std::make_unique<Statement>(std::move(*stmt))).first;
    }
    it->second->reset();
    return it->second.get();
}

Status Database::cached_each(std::initializer_list<std::pair<Statement**, const char*>> slots) {
    for (auto& [slot, sql] : slots) {
        auto st = cached(sql);
        if (!st) return st.error();
        *slot = *st;
    }
    return ok_status();
}

bool Statement::step(Status& status) {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) status = db_->error("step");
    return false;
}

Status Statement::run() {
    Status status;
    while (step(status)) {
    }
    reset();
    return status;
}

std::string Statement::text(int col) const {
    const void* data = sqlite3_column_blob(stmt_, col);
    int n = sqlite3_column_bytes(stmt_, col);
    return data != nullptr ? std::string(static_cast<const char*>(data), static_cast<size_t>(n)) : std::string();
}

}  // namespace rq::state
