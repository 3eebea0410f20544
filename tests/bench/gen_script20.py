#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A 20-probe script for the pass-4 benchmark: timers that update maps,
statistics and strings, an end probe that prints them; what a real
monitoring script compiles to."""
import sys

out = ["global counts, sizes, names, total"]
for i in range(18):
    out.append(f"probe timer.ms({10 + i}) {{ counts[{i}]++; sizes[\"t{i}\"] <<< {i} * 3; "
               f"names[{i}] = sprintf(\"timer %d\", {i}); total += {i} }}")
out.append("probe begin { printf(\"start\\n\") }")
out.append("probe end { foreach (k in counts- limit 5) printf(\"%d %d %s\\n\", k, counts[k], names[k]);"
           " foreach (s in sizes) printf(\"%s %d\\n\", s, @avg(sizes[s])); print(total) }")
sys.stdout.write("\n".join(out) + "\n")
