s/^WARNING: [0-9]+ output bytes/WARNING: N output bytes/
