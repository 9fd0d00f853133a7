"""A scripted broker on 127.0.0.1 for tests that need a broker's exact answers: each request is
decoded and kept in ``seen`` as (api key, version, body); ``respond(api_key, version, body)``
returns the answer's body, or None to leave the request unanswered."""
import socket
import threading

from kafkacodec.protocol import FrameSplitter, decode_request, encode_response


class ScriptedBroker:
    def __init__(self, respond):
        self.respond = respond
        self.seen = []
        self.srv = socket.create_server(("127.0.0.1", 0))
        self.srv.settimeout(0.05)    # accept() polls `stopped`: closing a socket does not wake it
        self.stopped = threading.Event()
        self.port = self.srv.getsockname()[1]
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self):
        while not self.stopped.is_set():
            try:
                conn, _ = self.srv.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            t = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            self.threads.append(t)
            t.start()

    def _serve(self, conn):
        splitter = FrameSplitter()
        with conn:
            conn.settimeout(10)
            while not self.stopped.is_set():
                try:
                    data = conn.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                for frame in splitter.feed(data):
                    header, body = decode_request(frame)
                    key, version = header.request_api_key, header.request_api_version
                    self.seen.append((key, version, body))
                    answer = self.respond(key, version, body)
                    if answer is not None:
                        conn.sendall(encode_response(key, version, header.correlation_id, answer))

    def close(self):
        self.stopped.set()
        self.threads[0].join(5)
        self.srv.close()
        for t in self.threads:
            t.join(5)
