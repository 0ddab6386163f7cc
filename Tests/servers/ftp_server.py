"""An FTP server for the deploy tests: pyftpdlib (a real FTP server library) on
127.0.0.1, one user, with TLS required when asked (a self-signed certificate made here,
written beside the served folder so the test can trust it).

    python3 ftp_server.py PORT ROOT USER PASSWORD PERMISSIONS [tls CERT_OUT]

PERMISSIONS are pyftpdlib's letters: "elradfmwMT" for all, "elr" to read only.
"""
import os

# Started from a test process that runs other tests in parallel: any pipe it had open
# when this was spawned (another test's `isobar` output) must not stay open here, or that
# test never sees its end of file.
os.closerange(3, os.sysconf("SC_OPEN_MAX"))

import signal

# The spawning thread may block signals, and that mask is inherited: take SIGTERM again.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

import datetime
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler, TLS_FTPHandler
from pyftpdlib.servers import FTPServer


def make_certificate(path):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID
    import ipaddress

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    with open(path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(path + ".key", "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                  serialization.NoEncryption()))


def main():
    port, root, user, password, permissions = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
    tls = len(sys.argv) > 6 and sys.argv[6] == "tls"
    authorizer = DummyAuthorizer()
    authorizer.add_user(user, password, root, perm=permissions)
    handler = TLS_FTPHandler if tls else FTPHandler
    if tls:
        make_certificate(sys.argv[7])
        handler.certfile = sys.argv[7]
        handler.keyfile = sys.argv[7] + ".key"
        handler.tls_control_required = True
        handler.tls_data_required = True
    handler.authorizer = authorizer
    FTPServer(("127.0.0.1", port), handler).serve_forever()


if __name__ == "__main__":
    main()
