"""A WebSocket upstream for the server's tests, on PyPI `websockets`: listens on 127.0.0.1 port 0 (TLS
when given a certificate and key), prints the port, and exits when its standard input closes.

Each connection is greeted with "welcome"; a text message is answered "echo: <text>", a binary one
echoed back; "bye" is answered with a close (4000, "see you"). It offers no extension (compression off),
and answers a handshake for the path /refuse with 403.
"""
import asyncio
import http
import ssl
import sys

import websockets
from websockets.asyncio.server import serve


async def handler(socket):
    await socket.send("welcome")
    async for message in socket:
        if message == "bye":
            await socket.close(code=4000, reason="see you")
            return
        if isinstance(message, bytes):
            await socket.send(message)
        else:
            await socket.send("echo: " + message)


def refuse(connection, request):
    if request.path == "/refuse":
        return connection.respond(http.HTTPStatus.FORBIDDEN, "no sockets here\n")
    return None


async def main():
    context = None
    if len(sys.argv) == 3:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
    async with serve(handler, "127.0.0.1", 0, ssl=context, compression=None, process_request=refuse) as server:
        port = server.sockets[0].getsockname()[1]
        print(port, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


asyncio.run(main())
