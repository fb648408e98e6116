"""What the PyGithub case scripts share: each case runs once and prints its result (or the exception it raised) as
one JSON line, which tests/compat/debian-clients.ts runCases reads by name."""
import json
import traceback


def case(name):
    def run(function):
        try:
            result = function()
        except Exception as error:  # reported, not raised: the test names the case that failed
            result = {"raised": type(error).__name__, "status": getattr(error, "status", None),
                      "data": getattr(error, "data", None), "trace": traceback.format_exc(limit=3)}
        print(json.dumps({"case": name, "result": result}, default=str), flush=True)
        return function
    return run
