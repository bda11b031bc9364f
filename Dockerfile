# kubewait as a container image: the npm package (dist/cli.js, no dependencies) installed globally on
# node:24-slim, run as `kubewait` by the unprivileged `node` user (uid 1000) of the base image.
#
#   npm run package   # dist/ as committed (the release commit has it)
#   docker build -t kubewait:0.1.0 .
#   docker run --rm -v ~/.kube/config:/kube/config:ro -e KUBECONFIG=/kube/config kubewait:0.1.0 deployment/web -n shop
#
# Never built or pushed from the development machines (no Docker engine, no registry access there):
# see docs/releasing.md.

# The package exactly as `npm pack` makes it for the npm registry and the GitHub release.
FROM node:24-slim AS pack
WORKDIR /src
COPY package.json README.md LICENSE ./
COPY dist/ dist/
RUN npm pack --ignore-scripts --pack-destination /tmp && mv /tmp/kubewait-*.tgz /tmp/kubewait.tgz

FROM node:24-slim
COPY --from=pack /tmp/kubewait.tgz /tmp/kubewait.tgz
# Puts `kubewait` and `kubectl-kubewait` on PATH; the package has no dependencies to fetch.
RUN npm install --global --no-audit --no-fund --ignore-scripts /tmp/kubewait.tgz \
  && rm /tmp/kubewait.tgz \
  && npm cache clean --force
USER node
WORKDIR /home/node
ENTRYPOINT ["kubewait"]
CMD ["--help"]
