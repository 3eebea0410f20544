s/^WARNING: [0-9]+ probes skipped \(CPU overloaded/WARNING: N probes skipped (CPU overloaded/
