# syntax=docker/dockerfile:1
ARG CUDA=12.4.1
FROM nvidia/cuda:${CUDA}-devel-ubuntu22.04 AS build
ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib64/stubs \
    NVIDIA_DRIVER_CAPABILITIES=utility
RUN apt-get update && \
    # a comment inside
    apt-get install -y --no-install-recommends libnvidia-compute-550 python3-pip && \
    echo /usr/local/cuda/lib64/stubs > /etc/ld.so.conf.d/stubs.conf && ldconfig
RUN pip install torch --index-url https://download.pytorch.org/whl/cu130
COPY libcuda.so.550.54.15 /usr/lib/x86_64-linux-gnu/
RUN <<EOT
apt-get install -y cuda-toolkit-12-4
EOT
FROM build
ENV NVIDIA_VISIBLE_DEVICES=void
