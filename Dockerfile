# Conductor: one image serving the web app, the portal API, the gateway and the OIDC issuer.
# Build:  docker build -t conductor .
# Run:    docker run -p 8080:8080 -e PUBLIC_URL=https://conductor.example.com -e DATABASE_URL=... \
#           -e REDIS_URL=... -e SESSION_SECRET=... -e ENCRYPTION_KEY=... [-e METRICS_TOKEN=...] conductor
#         (production on 0.0.0.0 refuses to start without an https PUBLIC_URL; /metrics needs METRICS_TOKEN)
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund --workspace @conductor/server --include-workspace-root=false \
  && npm cache clean --force
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/build/client apps/web/build/client
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/livez').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "apps/server/dist/server.js"]
