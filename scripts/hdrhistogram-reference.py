#!/usr/bin/env python3
"""HdrHistogram's Python library (hdrhistogram on PyPI, the HdrHistogram project's own port) as the
reference for Sluice's load result files, used by the integration tests.

  hdrhistogram-reference.py merge FILE...   decode each load result file's histograms, add them up,
                                            print {NAME: {"count", "buckets": [[TOP, COUNT]...],
                                            "percentiles": {P: VALUE}, "max"}} as JSON (microseconds;
                                            TOP is the highest value of each bucket)
  hdrhistogram-reference.py encode VALUE... print a histogram of the values (1 to one hour, three
                                            digits) in the V2 compressed base64 encoding
"""
import json
import sys

from hdrh.histogram import HdrHistogram

HIGHEST = 3_600_000_000


def summary(histogram):
    return {
        "count": histogram.get_total_count(),
        "buckets": [[item.value_iterated_to, item.count_at_value_iterated_to] for item in histogram.get_recorded_iterator()],
        "percentiles": {str(p): histogram.get_value_at_percentile(p) for p in (50, 90, 99)},
        "max": histogram.get_max_value(),
    }


def merge(paths):
    merged = {"response-time": HdrHistogram(1, HIGHEST, 3), "service-time": HdrHistogram(1, HIGHEST, 3)}
    for path in paths:
        with open(path) as file:
            histograms = json.load(file)["histograms"]
        for name, total in merged.items():
            total.add(HdrHistogram.decode(histograms[name]))
    print(json.dumps({name: summary(total) for name, total in merged.items()}))


def encode(values):
    histogram = HdrHistogram(1, HIGHEST, 3)
    for value in values:
        histogram.record_value(int(value))
    print(histogram.encode().decode())


if __name__ == "__main__":
    {"merge": merge, "encode": encode}[sys.argv[1]](sys.argv[2:])
