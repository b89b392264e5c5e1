// A thin RAII layer over SQLite's C API: a connection and prepared
// statements, errors as Status naming the database file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "utilities/result.h"

namespace rq::state {

class Database;

class Statement {
public:
    Statement(Database* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
    Statement(const Statement&) = delete;
    Statement(Statement&& o) noexcept : db_(o.db_), stmt_(o.stmt_) { o.stmt_ = nullptr; }
    ~Statement() { sqlite3_finalize(stmt_); }

    Statement& bind(int i, int64_t v) { sqlite3_bind_int64(stmt_, i, v); return *this; }
    Statement& bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); return *this; }
    Statement& bind(int i, std::string_view v) {
        sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement& bind_blob(int i, std::string_view v) {
        sqlite3_bind_blob(stmt_, i, v.empty() ? "" : v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    // One step: true while a row is available. Errors go to `status`.
    bool step(Status& status);
    // Runs a statement without rows to completion and resets it.
    Status run();
    void reset() { sqlite3_reset(stmt_); sqlite3_clear_bindings(stmt_); }

    int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }
    std::string text(int col) const;
    int type(int col) const { return sqlite3_column_type(stmt_, col); }

private:
    Database* db_;
    sqlite3_stmt* stmt_;
};


class Database {
public:
    Database() = default;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    // Cached statements name their database: a move finalizes them.
    Database(Database&& o) noexcept : db_(o.db_), path_(std::move(o.path_)) {
        o.cache_.clear();
        o.db_ = nullptr;
    }
    Database& operator=(Database&& o) noexcept {
        if (this != &o) {
            close();
            o.cache_.clear();
            db_ = o.db_;
            path_ = std::move(o.path_);
            o.db_ = nullptr;
        }
        return *this;
    }
    ~Database() { close(); }

    // Opens (create: creating if absent) the file at `path`.
    Status open(const std::string& path, bool create);
    // Opens `path` for reading only, as immutable: no lock, no -wal or
    // -shm file (a read-only directory or mount; docs/state.md, Read-only copies).
    Status open_immutable(const std::string& path);
    void close();
    bool is_open() const { return db_ != nullptr; }
    const std::string& path() const { return path_; }

    // Runs one or more statements without results.
    Status exec(const std::string& sql);
    Result<Statement> prepare(std::string_view sql);
    // A statement prepared once per connection (saves that run after
    // every command would otherwise prepare the same dozen statements each
    // time); reset, bindings cleared. Valid until close() or a move.
    Result<Statement*> cached(const std::string& sql);
    // cached() for each (slot, sql) pair: a writer's statements at once.
    Status cached_each(std::initializer_list<std::pair<Statement**, const char*>> slots);
    // An error naming the file, `what` was being done, and SQLite's message.
    Error error(const std::string& what) const;
    sqlite3* handle() { return db_; }

private:
    std::string explained(const std::string& message) const;

    sqlite3* db_ = nullptr;
    std::string path_;
    std::map<std::string, std::unique_ptr<Statement>> cache_;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back if not committed.
class Transaction {
public:
    explicit Transaction(Database& db) : db_(db) {}
    Status begin() { RQ_TRY(db_.exec("BEGIN IMMEDIATE")); open_ = true; return ok_status(); }
    Status commit() { open_ = false; return db_.exec("COMMIT"); }
    ~Transaction() { if (open_) (void)db_.exec("ROLLBACK"); }

private:
    Database& db_;
    bool open_ = false;
};

}  // namespace rq::state
