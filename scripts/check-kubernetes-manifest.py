#!/usr/bin/env python3
"""Loads Kubernetes manifests with the official Python client's models (kubernetes on PyPI), as
kubectl's server would read them, and prints what a test needs to run their jobs' commands.

  check-kubernetes-manifest.py VARIABLES_JSON FILE...

Each file's ${NAME} placeholders named in VARIABLES_JSON are replaced first, as `envsubst` would.
Every document must deserialize into its kind's model (V1Job, V1PersistentVolumeClaim, ...) and
serialize back to exactly the same document: a misspelled or misplaced field, which the models
would drop, is an error, as is a missing required field or a wrong type. Prints JSON:
{"claims": [NAME...], "jobs": [{"name", "completion_mode", "completions", "parallelism",
"containers": [{"command", "args", "env": {NAME: VALUE}, "mounts": {MOUNT_PATH: VOLUME}}],
"volumes": {VOLUME: {"claim": NAME} | {"config_map": NAME}}}]}. Exits 1 with the reason otherwise.
"""
import json
import re
import sys

import yaml
from kubernetes import client


def substitute(text, variables):
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: variables.get(m.group(1), m.group(0)), text)


def model(document):
    version = document.get("apiVersion", "")
    group_version = version.split("/")[-1]
    name = "V" + group_version[1:].capitalize() + document.get("kind", "") if group_version.startswith("v") else ""
    if not hasattr(client, name):
        raise SystemExit(f"no model {name!r} for apiVersion {version!r} kind {document.get('kind')!r}")
    api = client.ApiClient()
    try:
        instance = api._ApiClient__deserialize(document, name)
    except (ValueError, TypeError) as error:
        raise SystemExit(f"{document.get('kind')} {document.get('metadata', {}).get('name')}: {error}")
    back = api.sanitize_for_serialization(instance)
    if back != document:
        raise SystemExit(f"{name} {document['metadata']['name']}: fields the model does not know, or of the wrong shape:\n"
                         f"  written: {json.dumps(document, sort_keys=True)}\n  read:    {json.dumps(back, sort_keys=True)}")
    return instance


def main():
    variables = json.loads(sys.argv[1])
    summary = {"claims": [], "jobs": []}
    for path in sys.argv[2:]:
        with open(path) as file:
            documents = [d for d in yaml.safe_load_all(substitute(file.read(), variables)) if d is not None]
        for document in documents:
            instance = model(document)
            if isinstance(instance, client.V1PersistentVolumeClaim):
                summary["claims"].append(instance.metadata.name)
            elif isinstance(instance, client.V1Job):
                pod = instance.spec.template.spec
                volumes = {}
                for volume in pod.volumes or []:
                    if volume.persistent_volume_claim:
                        volumes[volume.name] = {"claim": volume.persistent_volume_claim.claim_name}
                    elif volume.config_map:
                        volumes[volume.name] = {"config_map": volume.config_map.name}
                summary["jobs"].append({
                    "name": instance.metadata.name,
                    "completion_mode": instance.spec.completion_mode,
                    "completions": instance.spec.completions,
                    "parallelism": instance.spec.parallelism,
                    "restart_policy": pod.restart_policy,
                    "containers": [{
                        "command": container.command or [],
                        "args": container.args or [],
                        "env": {variable.name: variable.value for variable in container.env or []},
                        "mounts": {mount.mount_path: mount.name for mount in container.volume_mounts or []},
                    } for container in pod.containers],
                    "volumes": volumes,
                })
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
