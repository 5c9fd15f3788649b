import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEPLOY_DIR, haproxyConfig, nginxConfig } from './cluster-config.mjs';

/** The lines of a configuration that carry a directive (no blank lines, no whole-line comments). */
const directives = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

describe('the deploy/ configurations made local (decision 221)', () => {
  it('haproxy: only the marked lines go, and the bind and server lines are replaced', async () => {
    const shipped = directives(readFileSync(join(DEPLOY_DIR, 'haproxy.cfg'), 'utf8'));
    const local = directives(
      await haproxyConfig({ listen: '127.0.0.1:8000', servers: ['127.0.0.1:8001', '127.0.0.1:8002'] }),
    );
    expect(local.filter((line) => line.startsWith('bind '))).toEqual(['bind 127.0.0.1:8000']);
    expect(local.filter((line) => line.startsWith('server '))).toEqual([
      'server hg1 127.0.0.1:8001',
      'server hg2 127.0.0.1:8002',
    ]);
    const kept = shipped.filter(
      (line) => !line.endsWith('# production only') && !/^(bind|server) /.test(line),
    );
    expect(local.filter((line) => !/^(bind|server) /.test(line))).toEqual(kept);
    expect(local.join('\n')).not.toMatch(/ssl crt|chroot|admin\.sock/);
  });

  it('nginx: the listen and upstream server lines are replaced, keeping their options', async () => {
    const local = directives(
      await nginxConfig({ listen: '127.0.0.1:8000', servers: ['127.0.0.1:8001'], prefix: '/tmp/x' }),
    );
    expect(local.filter((line) => line.startsWith('listen '))).toEqual(['listen 127.0.0.1:8000;']);
    expect(local.filter((line) => /^server \S+:\d+/.test(line))).toEqual([
      'server 127.0.0.1:8001 max_fails=1 fail_timeout=10s;',
    ]);
    expect(local).toContain('pid /tmp/x/nginx.pid;');
    expect(local.join('\n')).not.toMatch(/ssl_certificate|www-data|\/var\/log/);
    expect(local).toContain('client_max_body_size 0;');
    expect(local).toContain('proxy_set_header Upgrade $http_upgrade;');
  });
});
