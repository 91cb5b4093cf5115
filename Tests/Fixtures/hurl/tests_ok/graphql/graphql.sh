#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/graphql/graphql.hurl
