"""What the loopback stand-ins in this folder share: an HTTP server on 127.0.0.1 that
says when it listens (a `ready` file the test waits for, see DetachedServer.swift).
"""
import socketserver
from http.server import ThreadingHTTPServer


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):
        # HTTPServer's own looks its host name up (getfqdn) between bind and listen: with
        # no DNS that takes long, and a test's connect sent meanwhile is left unanswered.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = "127.0.0.1", self.server_address[1]


def serve(port, handler, ready):
    """Listens on 127.0.0.1:`port`, writes the file `ready`, then serves until killed."""
    server = Server(("127.0.0.1", port), handler)
    open(ready, "w").close()  # listening: the test may go on
    server.serve_forever()


def answer(handler, status, headers, body):
    """Sends one whole answer: the status, `headers` (a dict), the length and `body`."""
    handler.send_response(status)
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)
