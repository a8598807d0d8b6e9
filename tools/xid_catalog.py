#!/usr/bin/env python3
"""Writes rules/tables/xid-codes.json from NVIDIA's Xid catalog.

Usage: xid_catalog.py XID-CATALOG.xlsx > rules/tables/xid-codes.json

The input is NVIDIA's "Xid Catalog" workbook, the data behind
docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html (NVIDIA/NVSentinel
embeds a copy as health-monitors/syslog-health-monitor/pkg/common/Xid-Catalog.xlsx).
Its "Xids" sheet gives each code's mnemonic, description and NVIDIA's two
resolution buckets (immediate, investigatory). This script adds what is
gpudoctor's: an origin (whose fault) and an action from model/action.h, and
the advice a finding prints. Only the standard library is used.
"""
import json
import sys
import xml.etree.ElementTree as ET
import zipfile

CATALOG = ("NVIDIA Xid Catalog, r590 (Xid-Catalog.xlsx, sheet 'Xids', codes 1-172, workbook of 2025-09-30), "
           "published as docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html")
SHEET_NS = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
REL_ID = '{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id'

# Whose fault. The k8s device plugin counts 13, 31, 43, 45, 68 and 109 as the
# application's (internal/rm/health.go); NVIDIA's descriptions give the rest.
APPLICATION = {11, 13, 25, 31, 43, 45, 68, 69, 80, 108, 109, 137}
HARDWARE = {32, 48, 52, 53, 54, 55, 57, 58, 63, 64, 74, 79, 90, 92, 94, 95, 110, 121, 136, 140, 144, 145, 146, 147,
            148, 149, 150, 156, 157, 159, 162, 163, 164, 165, 167, 168, 171, 172}
DRIVER = {37, 38, 44, 46, 59, 60, 61, 62, 66, 67, 119, 120, 122, 123, 124, 125, 141, 143, 151, 158, 160, 161, 169}

# Buckets that name a workflow, or none (162-172 have no bucket yet): the
# action NVIDIA's workflow text or trigger condition asks for.
WORKFLOW_ACTIONS = {
    45: 'none',  # WORKFLOW_XID_45: it follows another Xid, whose action applies
    48: 'reset-gpu',  # WORKFLOW_XID_48: reset; drain first when Xid 63 or 64 came with it
    74: 'reset-gpu',  # WORKFLOW_NVLINK_ERR: "a GPU reset or node reboot is needed to clear this error"
    144: 'reset-gpu', 145: 'reset-gpu', 146: 'reset-gpu', 150: 'reset-gpu',  # NVLink5 decode: fatal rows RESET_GPU
    147: 'none', 148: 'none',  # NVLink5 decode: every row IGNORE
    149: 'drain-and-reset',  # NVLink5 NETIR link-fatal: Xid 154 follows with Drain and Reset
    154: 'none',  # XID_154: the action is in the line's own text (kernel_log reads it)
    159: 'reset-gpu',  # CHECK_UVM: reset when UVM is in use, as every CUDA program uses it
    162: 'none', 163: 'none', 164: 'none', 165: 'inspect-hardware',  # power smoothing circuitry
    166: 'fix-configuration', 167: 'inspect-hardware', 168: 'fix-configuration', 169: 'reset-gpu',
    170: 'inspect-hardware', 171: 'reset-gpu', 172: 'reset-gpu',
}

BUCKET_ACTIONS = {'IGNORE': 'none', 'RESET_GPU': 'reset-gpu', 'RESTART_VM': 'reboot-node', 'RESTART_BM': 'reboot-node',
                  'CONTACT_SUPPORT': 'inspect-hardware', 'CHECK_MECHANICALS': 'inspect-hardware',
                  'UPDATE_SWFW': 'fix-configuration'}

ADVICE = {
    'none': "Nothing for this Xid itself; where another Xid came with it, act on that one",
    'check-application': "The application's own fault: debug it (compute-sanitizer, cuda-gdb); if it recurs across "
                         "applications, run the GPU's diagnostics",
    'restart-workload': "Restart the workload it hurt; if it recurs, collect an nvidia-bug-report for NVIDIA",
    'fix-configuration': "Update the driver and the GPU's firmware to a release NVIDIA supports for this GPU, and check its configuration",
    'reset-gpu': "Reset the GPU once nothing uses it (`sudo nvidia-smi -r -i BUS_ID`), or reboot",
    'drain-and-reset': "Move the work off this GPU (and its NVLink peers), then reset it (`sudo nvidia-smi -r -i BUS_ID`)",
    'reboot-node': "Reboot the node (a cold boot if a reboot does not bring the GPU back)",
    'inspect-hardware': "Drain the node and have the GPU checked: run NVIDIA's field diagnostics and send an "
                        "nvidia-bug-report to NVIDIA or the system's vendor",
}
# Where gpudoctor knows more than the generic advice of the action.
CODE_ADVICE = {
    13: "Debug the application (compute-sanitizer memcheck, or CUDA_DEVICE_WAITS_ON_EXCEPTION=1 and cuda-gdb); "
        "if it recurs across applications, run the GPU's diagnostics",
    31: "Debug the application (compute-sanitizer); if it recurs across applications, check the driver and hardware",
    43: "Nothing: the failing application was stopped; look for its own error",
    45: "Nothing for this Xid: it cleans up after another error; act on the Xid before it",
    48: "Reset the GPU (`sudo nvidia-smi -r -i BUS_ID`), draining it first when Xid 63 or 64 came with it; "
        "if it recurs, have the GPU replaced",
    64: "Reset the GPU; if remapping fails again, have the GPU replaced",
    74: "Reset the GPUs of that link (or reboot); check the NVLink bridges and cables; escalate if it recurs",
    79: "Reboot; reseat the GPU and check its power, cabling, cooling and the system BIOS; escalate if it recurs",
    95: "Reset the GPU (`sudo nvidia-smi -r -i BUS_ID`) before using it again: every application on it was affected",
    119: "Reset the GPU; update the driver; escalate if it recurs",
    120: "Reset the GPU; update the driver; escalate if it recurs",
    154: "Do what the recovery action the driver names asks: GPU Reset Required, reset it once nothing uses it "
         "(`sudo nvidia-smi -r -i BUS_ID`); Drain P2P or Drain and Reset, move its work (and its peers') off first; "
         "Node Reboot Required, reboot",
}


def sheets(path):
    """Each sheet of the workbook as rows of {column letter: text}."""
    book = zipfile.ZipFile(path)
    shared = []
    if 'xl/sharedStrings.xml' in book.namelist():
        for item in ET.fromstring(book.read('xl/sharedStrings.xml')).findall('m:si', SHEET_NS):
            shared.append(''.join(t.text or '' for t in item.iter('{%s}t' % SHEET_NS['m'])))
    targets = {rel.attrib['Id']: rel.attrib['Target'] for rel in ET.fromstring(book.read('xl/_rels/workbook.xml.rels'))}
    out = {}
    for sheet in ET.fromstring(book.read('xl/workbook.xml')).findall('.//m:sheet', SHEET_NS):
        target = targets[sheet.attrib[REL_ID]].lstrip('/')
        rows = []
        for row in ET.fromstring(book.read(target if target.startswith('xl/') else 'xl/' + target)).findall('m:sheetData/m:row', SHEET_NS):
            cells = {}
            for cell in row.findall('m:c', SHEET_NS):
                column = ''.join(ch for ch in cell.attrib['r'] if ch.isalpha())
                kind, value = cell.attrib.get('t'), cell.find('m:v', SHEET_NS)
                if kind == 'inlineStr':
                    cells[column] = ''.join(t.text or '' for t in cell.iter('{%s}t' % SHEET_NS['m']))
                elif value is not None:
                    cells[column] = shared[int(value.text)] if kind == 's' else value.text
            rows.append(cells)
        out[sheet.attrib['name']] = rows
    return out


def clean(text):
    return ' '.join((text or '').split())


def origin(code):
    if code in APPLICATION:
        return 'application'
    if code in HARDWARE:
        return 'hardware'
    return 'driver' if code in DRIVER else 'system'


def action(code, immediate, whose):
    if code in WORKFLOW_ACTIONS:
        return WORKFLOW_ACTIONS[code]
    if immediate == 'RESTART_APP':
        return 'check-application' if whose == 'application' else 'restart-workload'
    if immediate not in BUCKET_ACTIONS:
        raise SystemExit(f'Xid {code}: no action for NVIDIA bucket {immediate!r}; add it to WORKFLOW_ACTIONS')
    return BUCKET_ACTIONS[immediate]


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    rows = sheets(sys.argv[1])['Xids']
    codes = []
    for cells in rows[1:]:
        if cells.get('A') != 'XID':
            continue
        code = int(cells['B'])
        whose = origin(code)
        row = {'code': code, 'mnemonic': clean(cells.get('C')), 'meaning': clean(cells.get('D')).rstrip('.'),
               'immediate': clean(cells.get('I')), 'investigatory': clean(cells.get('J')), 'origin': whose,
               'action': action(code, clean(cells.get('I')), whose)}
        row['advice'] = CODE_ADVICE.get(code, ADVICE[row['action']])
        codes.append(row)
    codes.sort(key=lambda row: row['code'])
    if [row['code'] for row in codes] != list(range(1, len(codes) + 1)) or len(codes) < 170:
        raise SystemExit('the catalog is not the codes 1..N this script was written for')
    print('{\n  "table": "xid-codes",')
    print('  "catalog": %s,' % json.dumps(CATALOG))
    print('  "source": %s,' % json.dumps(
        "NVIDIA's Xid catalog (the immediate and investigatory resolution buckets are NVIDIA's own words); origin, "
        "action (model/action.h) and advice are gpudoctor's. Generated by tools/xid_catalog.py; regenerate, do not edit."))
    print('  "codes": [')
    print(',\n'.join('    ' + json.dumps(row, ensure_ascii=False) for row in codes))
    print('  ]\n}')


if __name__ == '__main__':
    main()
