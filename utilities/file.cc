#include "utilities/file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace rq {

bool read_file(const std::string& path, std::string& text, std::string* why) {
    auto fail = [&] {
        if (why != nullptr) *why = std::strerror(errno);
        return false;
    };
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return fail();
    text.clear();
    char buffer[1 << 14];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
    bool ok = !std::ferror(f);
    int error = errno;
    std::fclose(f);
    errno = error;
    return ok ? true : fail();
}

}  // namespace rq
