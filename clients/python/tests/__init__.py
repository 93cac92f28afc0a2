"""The client's test suites (unittest): run ``python3 -m unittest discover -s tests -t .`` from clients/python."""
