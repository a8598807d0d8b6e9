#!/bin/sh
# An entrypoint that checks the GPU before the workload starts:
#   ENTRYPOINT ["/usr/local/bin/gpu-preflight.sh"]
#   CMD ["python3", "train.py"]
# The report goes to the container's log as JSON (docker logs, Kubernetes
# log collectors); gpudoctor's exit status decides:
#   0  the GPU stack is usable (warnings allowed): the workload starts
#   1  a layer fails: the container stops here, with the cause in the log
#   2  gpudoctor itself could not run: the workload starts, unless
#      GPUDOCTOR_PREFLIGHT=strict
# GPUDOCTOR_PREFLIGHT=off skips the check; GPUDOCTOR_ARGS adds options
# (--smoke to run a tiny kernel on every GPU, --strict to fail on warnings).
set -u
gpudoctor=${GPUDOCTOR:-gpudoctor}
mode=${GPUDOCTOR_PREFLIGHT:-on}

if [ "$mode" != off ]; then
  # shellcheck disable=SC2086  # GPUDOCTOR_ARGS is a list of options on purpose
  "$gpudoctor" check --format json ${GPUDOCTOR_ARGS:-} >&2
  status=$?
  case $status in
    0) ;;
    1)
      echo "gpu-preflight: this container cannot use its GPU (the report above names the cause); not starting $*" >&2
      exit 1
      ;;
    *)
      if [ "$mode" = strict ]; then
        echo "gpu-preflight: gpudoctor could not run (exit $status); GPUDOCTOR_PREFLIGHT=strict, not starting" >&2
        exit "$status"
      fi
      echo "gpu-preflight: gpudoctor could not run (exit $status); starting anyway" >&2
      ;;
  esac
fi
exec "$@"
