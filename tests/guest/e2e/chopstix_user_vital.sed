s/^vitals epoch ([0-9]+): [0-9-]+ [0-9:]+ UTC, [0-9.]+ s/vitals epoch \1: DATE UTC, S s/
