#include "utilities/result.h"

namespace rq {

const char* errc_text(Errc code) {
    switch (code) {
    case Errc::kOk: return "Success";
    case Errc::kInvalid: return "Invalid argument";
    case Errc::kBusy: return "Device or resource busy";
    case Errc::kUnsatisfiable: return "No such device";
    case Errc::kNotFound: return "No such file or directory";
    case Errc::kRange: return "Numerical result out of range";
    case Errc::kExists: return "File exists";
    case Errc::kNoMemory: return "Cannot allocate memory";
    case Errc::kIo: return "Input/output error";
    }
    return "Unknown error";
}

}  // namespace rq
