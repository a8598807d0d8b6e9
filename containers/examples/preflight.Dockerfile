# syntax=docker/dockerfile:1
# A CUDA workload that checks its GPU when the container starts (the
# entrypoint) and every five minutes after (HEALTHCHECK).
FROM gpudoctor:static AS gpudoctor

FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
COPY --from=gpudoctor /gpudoctor /usr/local/bin/gpudoctor
COPY containers/examples/gpu-preflight.sh /usr/local/bin/gpu-preflight.sh
COPY app/ /app/
WORKDIR /app
# Docker reserves health-check status 2, which is gpudoctor's "could not
# run": every failure is reported to Docker as 1 (unhealthy).
HEALTHCHECK --interval=5m --timeout=60s --start-period=30s \
  CMD /usr/local/bin/gpudoctor check --format line --no-probe || exit 1
ENTRYPOINT ["/usr/local/bin/gpu-preflight.sh"]
CMD ["python3", "serve.py"]
