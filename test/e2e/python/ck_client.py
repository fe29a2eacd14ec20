"""The official Python client set up for a ck-apiserver under test: its URL, a bearer token and
the CA that signed its serving certificate, from the script's first three arguments."""
import sys

from kubernetes import client


def api_client_from_argv():
    """An ApiClient for sys.argv[1:4] = <server-url> <token> <ca-file>."""
    url, token, ca_file = sys.argv[1:4]
    conf = client.Configuration()
    conf.host = url
    conf.ssl_ca_cert = ca_file
    conf.api_key = {"authorization": "Bearer " + token}
    return client.ApiClient(conf)
