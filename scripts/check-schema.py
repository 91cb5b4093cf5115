"""Checks YAML (or JSON) documents against a JSON Schema, as yaml-language-server would: pipeline
files against pipelines/schema.json, HAR files against Tests/Fixtures/har-1.2.schema.json.

    .venv/bin/python scripts/check-schema.py pipelines/schema.json pipelines/*.yaml

Prints one line per problem (FILE: PATH: MESSAGE) and exits 1 when there is any.
"""
import json
import sys

import jsonschema
import yaml


def main(schema_path, files):
    with open(schema_path) as handle:
        schema = json.load(handle)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    problems = 0
    for path in files:
        with open(path) as handle:
            document = yaml.safe_load(handle)
        for error in validator.iter_errors(document):
            location = "/".join(str(part) for part in error.absolute_path) or "(root)"
            print(f"{path}: {location}: {error.message}")
            problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
