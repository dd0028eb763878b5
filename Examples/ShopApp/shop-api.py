"""The shop's test instance the example records from: three endpoints, a price set by SHOP_PRICE, and
what every live API adds that a reviewer does not care about (a Date header, a request id)."""

import json
import os
import sys
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PRODUCTS = {
    42: {"id": 42, "name": "Tonearm cartridge", "price": float(os.environ.get("SHOP_PRICE", "12.5"))},
    7: {"id": 7, "name": "Diamond stylus", "price": 30.0},
}


class Shop(BaseHTTPRequestHandler):
    # The same Server header whatever Python runs it, so recordings differ only where the API does.
    def version_string(self) -> str:
        return "ShopAPI/1.0"

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        url = urlsplit(self.path)
        if url.path == "/products":
            text = parse_qs(url.query).get("q", [""])[0].lower()
            self.answer([product for product in PRODUCTS.values() if text in product["name"].lower()])
        elif url.path.startswith("/products/") and url.path[len("/products/"):].isdigit():
            product = PRODUCTS.get(int(url.path[len("/products/"):]))
            self.answer(product, 200 if product else 404)
        else:
            self.answer({"error": "no such endpoint"}, 404)

    def answer(self, value, status: int = 200) -> None:
        body = json.dumps(value, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Request-Id", str(uuid.uuid4()))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_arguments) -> None:
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 47613), Shop)
    print("listening", flush=True)
    server.serve_forever()
