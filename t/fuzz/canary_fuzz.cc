// libFuzzer target: canary resource pools (-f canary, JSON or YAML) through the pool
// loader and the pool graph builder (t/fuzz/pool_fuzz.h).
//
//   clang++ -fsanitize=fuzzer,address,undefined ... (cmake -DRQ_FUZZ=ON)
//   build-fuzz/bin/canary_fuzz -max_total_time=60 corpus/ t/fuzz/seeds/canary/
#include "pool_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    return fuzz_pool_loader(data, size, rq::pools::read_canary_pool);
}
