#!/usr/bin/env python3
"""Writes rules/tables/pci-products.tsv from a pci.ids file.

Usage: make_pci_products.py PCI_IDS [OUTPUT]

Each NVIDIA device id becomes one row: its pci.ids name, the brand that the
container toolkit matches NVIDIA_REQUIRE_* brand= against (NVML's brand
names, lower case) and the product class. Both are decided here, once, from
the marketing name, so that the diagnosis never depends on the pci.ids of
the machine that runs or replays a check.
"""
import re
import sys

NVIDIA = '10de'

# Data-centre products whose names carry no "Tesla" (NVML reports them as
# brand Tesla: nvmlDeviceGetBrand, NVML API reference, nvmlBrandType_t).
DATACENTER = re.compile(
    r'\b(tesla|hgx|dgx|a2|a10[gm]?|a16|a30x?|a40|a100x?|a800|h20|h100|h200|h800|gh200|l2|l4|l20|l40[sg]?|'
    r'b100|b200|b300|gb200|gb300|t4|t10|v100s?|p4|p6|p40|p100|m4|m6|m10|m40|m60|k10|k20x?|k40|k80)\b')
WORKSTATION_RTX = re.compile(r'\b(rtx a\d+|rtx pro|rtx \d+ ada|nvidia rtx|t\d{3,4}|a\d{3,4}m?)\b')
EMBEDDED = re.compile(r'\b(jetson|tegra|orin|xavier|drive)\b')


def bracketed(name: str) -> str:
    """The marketing part: "GH100 [H100 SXM5 80GB]" -> "h100 sxm5 80gb"."""
    match = re.search(r'\[(.*)\]', name)
    return (match.group(1) if match else name).lower()


def brand_and_class(name: str) -> tuple[str, str]:
    text = bracketed(name)
    if 'geforce' in text:
        return 'geforce', 'consumer'
    if 'titan' in text:
        return 'titan', 'consumer'
    if 'quadro' in text:
        return ('nvs' if 'nvs' in text else 'quadro'), 'workstation'
    if re.search(r'\bnvs\b', text):
        return 'nvs', 'workstation'
    if re.search(r'\bgrid\b', text):
        return 'grid', 'datacenter'
    if EMBEDDED.search(text):
        return 'unknown', 'embedded'
    if WORKSTATION_RTX.search(text) and not re.search(r'\ba(10|16|30|40|100|800|2)\b', text):
        return 'nvidiartx', 'workstation'
    if DATACENTER.search(text):
        return 'tesla', 'datacenter'
    return 'unknown', 'unknown'


def nvidia_devices(path: str):
    vendor = None
    with open(path, encoding='utf-8', errors='replace') as handle:
        for line in handle:
            if line.startswith('#') or not line.strip():
                continue
            if not line.startswith('\t'):
                vendor = line.split()[0]
                continue
            if vendor != NVIDIA or line.startswith('\t\t'):
                continue
            device, _, name = line.strip().partition(' ')
            yield device.lower(), name.strip()


def version_of(path: str) -> str:
    with open(path, encoding='utf-8', errors='replace') as handle:
        for line in handle:
            if 'Version:' in line:
                return line.split('Version:')[1].strip()
    return 'unknown'


def main() -> None:
    pci_ids = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else 'rules/tables/pci-products.tsv'
    lines = [
        '# table: pci-products',
        f'# source: names from pci.ids {version_of(pci_ids)} (vendor 10de). brand: the NVML brand (nvmlBrandType_t, NVML API',
        '#   reference) that nvidia-container-cli compares with NVIDIA_REQUIRE_* brand=, lower case; class: consumer,',
        '#   workstation, datacenter or embedded. Both decided from the marketing name by tools/make_pci_products.py.',
        '# One NVIDIA PCI device id a line, ascending: id, brand, class, name; tab-separated.',
    ]
    for device, name in sorted(nvidia_devices(pci_ids)):
        brand, product_class = brand_and_class(name)
        lines.append('\t'.join((device, brand, product_class, name.replace('\t', ' '))))
    with open(out_path, 'w', encoding='utf-8') as handle:
        handle.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
