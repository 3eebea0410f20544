s/^WARNING: [0-9]+ probe hits skipped/WARNING: N probe hits skipped/
