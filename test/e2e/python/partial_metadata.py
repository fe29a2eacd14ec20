"""The official Python client's metadata-only scenario (its own e2e test
test_node_apis_partial_object_metadata, reproduced): the DynamicClient lists nodes with
Accept: application/json;as=PartialObjectMetadataList, under both header spellings. Prints one
JSON object with what it saw.

Usage: python3 partial_metadata.py <server-url> <token> <ca-file>
"""
import json

from ck_client import api_client_from_argv
from kubernetes.dynamic import DynamicClient

dyn = DynamicClient(api_client_from_argv())
nodes = dyn.resources.get(api_version="v1", kind="Node")
nodes.create(body={"apiVersion": "v1", "kind": "Node", "metadata": {"name": "py-node", "labels": {"a": "b"}}, "spec": {"podCIDR": "10.1.0.0/24"}})

out = []
for header in ("Accept", "aCcePt"):
    for version in ("v1", "v1beta1"):
        resp = nodes.get(header_params={header: "application/json;as=PartialObjectMetadataList;v=%s;g=meta.k8s.io" % version})
        out.append({
            "kind": resp.kind,
            "apiVersion": resp.apiVersion,
            "items": [[i.kind, i.apiVersion, i.metadata.name, i.get("spec"), i.get("status")] for i in resp.items],
        })
print(json.dumps(out))
