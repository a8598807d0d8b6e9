# syntax=docker/dockerfile:1
# PyTorch indexes that do not exist, and pins an index has no build of.
FROM nvidia/cuda:12.2.2-runtime-ubuntu22.04
# There never was a cu122 index: pip finds no torch.
RUN pip install torch --index-url https://download.pytorch.org/whl/cu122
# torch 2.1 was built for cu118 and cu121 only.
RUN pip install torch==2.1.0 torchvision --index-url https://download.pytorch.org/whl/cu124
# Fine: 2.5.1 has a cu124 build, and an index newer than the table knows is not judged.
RUN pip install "torch==2.5.1" --index-url https://download.pytorch.org/whl/cu124
RUN pip install torch --index-url https://download.pytorch.org/whl/cu121
FROM nvidia/cuda:13.0.1-runtime-ubuntu24.04
RUN pip install torch --index-url https://download.pytorch.org/whl/cu132
