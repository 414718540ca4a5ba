"""gunicorn settings for `make run` (the bind address comes from the command line)."""

import os

workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = 4
accesslog = "-"
# Links that carry a secret (a seat's continue link, an unsubscribe link) are logged redacted.
logger_class = "staked.access_log.RedactingLogger"
graceful_timeout = 5
# Idle keep-alive connections are kept 75 s (gunicorn's default, 2 s, reset the connections a
# client's pool was about to reuse: ConnectionResetError). Longer than the idle timeout of the
# usual reverse proxies in front (nginx's upstream keepalive_timeout and AWS ALB's, 60 s), so
# the proxy, not gunicorn, closes an idle connection: it then never races a request.
keepalive = 75
# gunicorn's own limit (its maximum): longer request lines get its plain-text 400. Django refuses
# paths and queries over MAX_URL_LENGTH (4096) itself, with a JSON 414 on the API.
limit_request_line = 8190
# gunicorn >= 25 opens a control socket in ~/.gunicorn by default; a local run needs none.
control_socket_disable = True


def when_ready(server):
    address = server.address[0]
    if isinstance(address, tuple):
        url = f"http://{address[0]}:{address[1]}/"
    else:
        url = f"unix:{address}"
    print(f"Staked! is running at {url}", flush=True)
