/**
 * Remote debug of an inverter or a gateway (company staff: inverter.debug / gateway.debug): a
 * debug code is sent to the device through its gateway and its diagnostic text shown as it
 * comes. An inverter's reply is read with the debug reply call until its job is final; a
 * gateway's comes with the call itself. Offline (1001), no answer in time (1) and a state that
 * blocks it (1005) show in the panel; before the first code it says what to do.
 */
import { BugOutlined } from '@ant-design/icons';
import { type commandsApi, type DataOf, DEBUG_CODE_MAX, ErrorCode, errorText, toLanguage } from '@sunfleet/contracts';
import { Alert, Button, Card, Empty, Flex, Input, Spin, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import ui from '../../../components/ui.module.css';
import { gatewayDebug, inverterDebug, inverterDebugReply } from './deviceQueries.ts';
import styles from './devices.module.css';

type Reply = DataOf<typeof commandsApi.inverterDebugReply>;

/** How long one read of an inverter's reply waits on the server for the job to finish. */
export const DEBUG_WAIT_MS = 5000;
/** The least time between two reads of a reply that is not final. */
export const DEBUG_MIN_GAP_MS = 500;
const FINAL: ReadonlySet<Reply['state']> = new Set(['succeeded', 'failed', 'timed_out', 'cancelled', 'expired']);

type Outcome =
  | { kind: 'idle' }
  | { kind: 'running'; reply: Reply | null }
  | { kind: 'done'; reply: Reply }
  | { kind: 'error'; text: string };

export function DebugPanel({ kind, sn }: { kind: 'inverter' | 'gateway'; sn: string }) {
  const { t, i18n } = useTranslation('devices');
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  // A reply that comes after the page is left (or after another send) is dropped.
  const run = useRef(0);
  useEffect(
    () => () => {
      run.current++;
    },
    [],
  );

  const send = async () => {
    const text = code.trim();
    if (!text) return;
    const mine = ++run.current;
    const current = () => run.current === mine;
    setOutcome({ kind: 'running', reply: null });
    try {
      if (kind === 'gateway') {
        const reply = await gatewayDebug(sn, text);
        if (current()) setOutcome({ kind: 'done', reply });
        return;
      }
      let reply: Reply = await inverterDebug(sn, text);
      while (current() && !FINAL.has(reply.state)) {
        setOutcome({ kind: 'running', reply });
        const asked = Date.now();
        reply = await inverterDebugReply(sn, reply.jobId, DEBUG_WAIT_MS);
        // The server holds each read until the job moves or the wait ends; one that comes back at
        // once is not asked again sooner than this.
        const early = DEBUG_MIN_GAP_MS - (Date.now() - asked);
        if (early > 0 && !FINAL.has(reply.state)) await new Promise((r) => setTimeout(r, early));
      }
      if (current()) setOutcome({ kind: 'done', reply });
    } catch (err) {
      if (!current()) return;
      // 1, 1001 and 1005 are the panel's to say; the client has shown the others.
      setOutcome(err instanceof ApiError && err.tolerated ? { kind: 'error', text: err.message } : { kind: 'idle' });
    }
  };

  const running = outcome.kind === 'running';
  return (
    <Card size="small" title={t(`debug.title.${kind}`)} data-testid={`${kind}-debug`}>
      <Flex vertical gap={12}>
        <Flex gap={8} wrap>
          <Input
            className={styles.debugCode}
            value={code}
            maxLength={DEBUG_CODE_MAX}
            onChange={(e) => setCode(e.target.value)}
            onPressEnter={() => void send()}
            placeholder={t('debug.placeholder')}
            aria-label={t('debug.code')}
            disabled={running}
            data-testid="debug-code"
          />
          <Button
            type="primary"
            icon={<BugOutlined />}
            onClick={() => void send()}
            loading={running}
            disabled={!code.trim()}
            data-testid="debug-send"
          >
            {t('debug.send')}
          </Button>
        </Flex>
        <DebugOutcome outcome={outcome} timedOut={errorText(ErrorCode.timeout, toLanguage(i18n.language))} />
      </Flex>
    </Card>
  );
}

function DebugOutcome({ outcome, timedOut }: { outcome: Outcome; timedOut: string }) {
  const { t } = useTranslation('devices');
  if (outcome.kind === 'idle')
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('debug.empty')} data-testid="debug-empty" />;
  if (outcome.kind === 'error') return <Alert type="error" showIcon title={outcome.text} data-testid="debug-error" />;
  if (outcome.kind === 'running')
    return (
      <Flex gap={8} align="center" data-testid="debug-running">
        <Spin size="small" />
        <Typography.Text type="secondary">
          {outcome.reply ? t(`debug.state.${outcome.reply.state}`) : t('debug.sending')}
        </Typography.Text>
      </Flex>
    );
  const { reply } = outcome;
  if (reply.state === 'succeeded')
    return (
      <Flex vertical gap={4} data-testid="debug-reply">
        <Flex gap={8} align="center">
          <Tag color="success">{t('debug.state.succeeded')}</Tag>
          <Typography.Text type="secondary" className={ui.note}>
            {t('debug.sent', { code: reply.code })}
          </Typography.Text>
        </Flex>
        {reply.text ? (
          <pre className={styles.debugReply} data-testid="debug-text">
            {reply.text}
          </pre>
        ) : (
          <Typography.Text type="secondary">{t('debug.noText')}</Typography.Text>
        )}
      </Flex>
    );
  const text =
    reply.state === 'failed'
      ? t('debug.failed', { reason: reply.error ?? '' })
      : reply.state === 'timed_out'
        ? timedOut
        : t(`debug.state.${reply.state}`);
  return <Alert type="error" showIcon title={text} data-testid="debug-error" />;
}
