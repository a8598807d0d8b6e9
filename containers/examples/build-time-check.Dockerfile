# syntax=docker/dockerfile:1
# Refuse to build an image that cannot run on the fleet's hosts: docker build
# has no GPU, so the image is judged by what it carries (--image) against the
# host the fleet has (--host-driver, and --gpu for its GPUs' architecture).
FROM gpudoctor:static AS gpudoctor

FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3-pip \
 && rm -rf /var/lib/apt/lists/*
RUN pip3 install --no-cache-dir torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124
COPY --from=gpudoctor /gpudoctor /usr/local/bin/gpudoctor
# Exit 1 (a layer fails; with --strict, a warning too) fails the build, with the reason in its log.
RUN gpudoctor check --image --gpu 9.0 --host-driver 550.54.15 --strict
