"""resource-query-report: figures and an HTML page from replay run folders.

docs/study.md "The report" describes the program; the run folder's files
are described there and in docs/queue.md "Replay".
"""
