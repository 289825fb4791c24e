# Keydom server image (used by docker-compose.yml).
FROM python:3.11-slim
WORKDIR /srv/keydom
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000
COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
# Editable, so templates/, static/ and migrations/ are found beside app/.
RUN pip install --no-cache-dir -e .
RUN useradd --system keydom && mkdir -p /var/lib/keydom && chown -R keydom /srv/keydom /var/lib/keydom
USER keydom
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --retries=3 \
  CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8000/api/healthz', timeout=4)" || exit 1
CMD ["python", "-m", "app"]
