#!/usr/bin/python3
"""Parse alloctop's metrics as a scraper would, with Debian's
python3-prometheus-client: FORMAT openmetrics through its OpenMetrics 1.0
parser, prometheus through its parser of the Prometheus text format 0.0.4.
Prints one line a metric family, "NAME TYPE SAMPLES", and exits 1 on any
parse error, on a family with no TYPE (alloctop types every one), and in
the Prometheus format on the lines that format does not have (# UNIT,
# EOF), which its parser would skip as comments.

Usage: parse-metrics.py openmetrics|prometheus FILE
"""
import sys

try:
    from prometheus_client.openmetrics.parser import (
        text_string_to_metric_families as openmetrics_families)
    from prometheus_client.parser import (
        text_string_to_metric_families as prometheus_families)
except ImportError as e:
    sys.exit(f"parse-metrics: {e}: install python3-prometheus-client "
             "(scripts/deps.sh build)")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("openmetrics", "prometheus"):
        sys.exit(__doc__.strip().splitlines()[-1])
    fmt, path = sys.argv[1:]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    bad = []
    if fmt == "prometheus":
        bad = [l for l in text.splitlines()
               if l.startswith("# UNIT ") or l == "# EOF"]
    try:
        parse = openmetrics_families if fmt == "openmetrics" else prometheus_families
        families = list(parse(text))
    except Exception as e:  # the parsers raise ValueError and others
        print(f"{path}: {fmt} parser: {type(e).__name__}: {e}")
        return 1
    bad += [f"{m.name}: no TYPE" for m in families if m.type == "unknown"]
    for m in families:
        print(m.name, m.type, len(m.samples))
    if bad:
        print(f"{path}: not the {fmt} format:", *bad, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
