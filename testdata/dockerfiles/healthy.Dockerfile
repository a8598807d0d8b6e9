# syntax=docker/dockerfile:1
# A healthy CUDA image: link against the stubs, inject the driver at run time.
ARG CUDA_VERSION=12.4.1
FROM nvidia/cuda:${CUDA_VERSION}-devel-ubuntu22.04 AS build
RUN apt-get update && apt-get install -y --no-install-recommends cuda-toolkit-12-4 python3-pip \
    && rm -rf /var/lib/apt/lists/*
ENV LIBRARY_PATH=/usr/local/cuda/lib64/stubs
RUN nvcc -o /app main.cu -L/usr/local/cuda/lib64/stubs -lcuda
RUN pip install torch --index-url https://download.pytorch.org/whl/cu124

FROM nvidia/cuda:${CUDA_VERSION}-runtime-ubuntu22.04
ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility
COPY --from=build /app /usr/local/bin/app
COPY <<EOF /etc/app.conf
# libcuda.so.1 comes from the host at run time
EOF
CMD ["app"]
