#!/usr/bin/env python3
"""Re-creates an SQLite database from a gzip-compressed SQL dump.

The Nsight Systems exports and nvprof databases of this directory are kept as
`sqlite3 .dump` text (compressed) of the tables the readers look at; tests turn
them back into the binary files the tools wrote: sql2db.py IN.sql.gz OUT.sqlite
"""
import gzip
import os
import sqlite3
import sys

src, dst = sys.argv[1], sys.argv[2]
if os.path.exists(dst):
    os.remove(dst)
with gzip.open(src, "rt", encoding="utf-8") as f:
    script = f.read()
db = sqlite3.connect(dst)
db.executescript(script)
db.commit()
db.close()
