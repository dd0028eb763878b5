"""Opens COUNT connections to 127.0.0.1:PORT at once, sends GET /ping on each, reads every answer to its
close, and prints how many ended in `pong`. Used so that the test runner itself holds no extra file
descriptors (see RobustnessTests)."""
import socket
import sys

port, count = int(sys.argv[1]), int(sys.argv[2])
connections = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(count)]
for connection in connections:
    connection.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
answered = 0
for connection in connections:
    data = b""
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            break
        data += chunk
    connection.close()
    if data.endswith(b"\r\n\r\npong"):
        answered += 1
print(answered)
