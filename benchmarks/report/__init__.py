"""The report: every published table of results/ from the raw data alone.
data.py reads, targets.py judges, tables.py, plots.py, text.py, traces.py
and survey.py write; __main__.py runs them (python3 -m benchmarks.report)."""
