# -f local and hwdetect: this machine as HyperQueue's detection sees it. It
# must work without GPUs; CUDA_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES name
# the gpus when set.
. "$(dirname "$0")/lib.sh"

out=$(printf '%s\n' hwdetect 'request -F env allocate cpus=1 mem=1' | \
      env -u CUDA_VISIBLE_DEVICES -u ROCR_VISIBLE_DEVICES -u HIP_VISIBLE_DEVICES "$RQ" -f local -d 2>&1) || fail "-f local: $out"
expect_contains "cpus detected" "cpus=" "$out"
expect_contains "memory detected" "mem=sum(" "$out"
expect_contains "a request on the local machine" "INFO: RESOURCES=ALLOCATED" "$out"
ncpu=$(printf '%s\n' "$out" | sed -n 's/^cpus=//p' | tr -d '[]' | tr ',' '\n' | grep -c .)
case "$(printf '%s\n' "$out" | sed -n 's/^cpus=//p')" in
range*|*x*) ;;
*) [ "$ncpu" -ge "$(nproc)" ] || fail "cpus lists $ncpu, nproc says $(nproc)" ;;
esac
out=$(echo hwdetect | CUDA_VISIBLE_DEVICES=2,3 ROCR_VISIBLE_DEVICES=0 "$RQ" -f local -d 2>&1)
expect_contains "CUDA_VISIBLE_DEVICES names the nvidia gpus" "gpus/nvidia=range(2-3)" "$out"
expect_contains "ROCR_VISIBLE_DEVICES names the amd gpus" "gpus/amd=range(0-0)" "$out"
out=$(echo 'request -F env allocate gpus/nvidia=1' | CUDA_VISIBLE_DEVICES=GPU-a1,GPU-b2 "$RQ" -f local -d 2>&1)
expect_contains "device uuids as ids" "CUDA_VISIBLE_DEVICES='GPU-a1'" "$out"
finish
