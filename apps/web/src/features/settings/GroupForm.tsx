/**
 * One setting group as a form built from its field definitions: each field's label in the
 * interface language, its unit, what it allows (range and step, or the options of a select), the
 * value read from the device and a "changed" marker once edited. Values are checked as typed
 * with the server's rules (`form.ts`); "Write" opens the confirmation with the diff (field, from,
 * to) and confirming hands the changed values to `onWrite`. A caller who may not write sees the
 * values as text, with no input and no write button. A `disabled` form (a device that cannot be
 * read now) shows its inputs and Write greyed out.
 */
import { Button, Flex, Form, Input, Modal, Select, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../components/NumberInput.tsx';
import { useAllowedText, useLang, useProblemText, valueText } from './display.ts';
import { buildDiff, type DiffRow, type Edits, type FieldValue, formProblems, type SettingField, valuesOf } from './form.ts';
import styles from './settings.module.css';

export interface GroupFormProps {
  fields: readonly SettingField[];
  canWrite: boolean;
  /** Extra buttons beside Write (the "Read" of a device's tab). */
  actions?: React.ReactNode;
  /** Write the confirmed changes; resolves when the write has been handed over. */
  onWrite: (values: Record<string, number | string>, diff: DiffRow[]) => Promise<unknown>;
  /** The confirmation's title (a batch names its devices). */
  confirmTitle?: string;
  /** Inputs and Write shown but not usable (the device's values are not known now). */
  disabled?: boolean;
}

export function GroupForm({ fields, canWrite, actions, onWrite, confirmTitle, disabled = false }: GroupFormProps) {
  const { t } = useTranslation('settings');
  const lang = useLang();
  const allowedText = useAllowedText();
  const problemText = useProblemText();
  const [edits, setEdits] = useState<Edits>({});
  const [confirming, setConfirming] = useState(false);
  const [writing, setWriting] = useState(false);
  const diff = useMemo(() => buildDiff(fields, edits), [fields, edits]);
  const problems = useMemo(() => formProblems(fields, edits), [fields, edits]);
  const blocked = diff.length === 0 || Object.keys(problems).length > 0;
  const byKey = new Map(fields.map((f) => [f.key, f]));

  const edit = (key: string, value: FieldValue) => setEdits((e) => ({ ...e, [key]: value }));

  const confirm = async () => {
    setWriting(true);
    try {
      await onWrite(valuesOf(diff), diff);
      setEdits({});
      setConfirming(false);
    } catch {
      // The refusal is shown by the caller; the form keeps the values typed.
      setConfirming(false);
    } finally {
      setWriting(false);
    }
  };

  if (fields.length === 0) return <Typography.Text type="secondary">{t('noFields')}</Typography.Text>;

  return (
    <>
      <Form layout="vertical" component="div" disabled={disabled} data-testid="setting-form" data-disabled={disabled}>
        <div className={styles.fields}>
          {fields.map((f) => {
            const editable = canWrite && f.writable;
            const changed = diff.some((d) => d.key === f.key);
            const problem = problems[f.key];
            const label = (
              <span>
                {f.name[lang]}
                {f.unit ? ` (${f.unit})` : ''}
                {changed && (
                  <Tag color="warning" className={styles.changed} data-testid={`setting-changed-${f.key}`}>
                    {t('changed')}
                  </Tag>
                )}
                {!f.writable && (
                  <Tag className={styles.changed} variant="filled">
                    {t('readOnlyField')}
                  </Tag>
                )}
              </span>
            );
            return (
              <Form.Item
                key={f.key}
                label={label}
                htmlFor={`setting-${f.key}`}
                validateStatus={problem ? 'error' : undefined}
                help={problem ? problemText(problem, f.unit) : undefined}
                extra={editable && !problem ? allowedText(f) : undefined}
                className={changed ? styles.changedField : undefined}
              >
                {editable ? (
                  <FieldInput
                    field={f}
                    value={f.key in edits ? (edits[f.key] ?? null) : f.value}
                    onChange={(v) => edit(f.key, v)}
                    disabled={disabled}
                  />
                ) : (
                  <div className={styles.value} id={`setting-${f.key}`} data-testid={`setting-value-${f.key}`}>
                    {valueText(f, f.value, lang)}
                  </div>
                )}
              </Form.Item>
            );
          })}
        </div>
      </Form>
      <Flex gap={8} wrap justify="flex-end">
        {actions}
        {canWrite && (
          <>
            <Button
              onClick={() => setEdits({})}
              disabled={disabled || Object.keys(edits).length === 0}
              data-testid="setting-reset"
            >
              {t('reset')}
            </Button>
            <Button type="primary" disabled={disabled || blocked} onClick={() => setConfirming(true)} data-testid="setting-write">
              {diff.length > 0 ? t('writeCount', { count: diff.length }) : t('write')}
            </Button>
          </>
        )}
      </Flex>
      <Modal
        open={confirming}
        title={confirmTitle ?? t('confirm.title')}
        okText={t('confirm.ok')}
        cancelText={t('common:cancel')}
        onOk={() => void confirm()}
        onCancel={() => setConfirming(false)}
        confirmLoading={writing}
        okButtonProps={{ 'data-testid': 'setting-confirm-ok' }}
        width={640}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('confirm.text')}</Typography.Paragraph>
        <Table<DiffRow>
          rowKey="key"
          size="small"
          pagination={false}
          dataSource={diff}
          data-testid="setting-diff"
          columns={[
            { key: 'field', title: t('columns.field'), render: (_, r) => r.name[lang] },
            { key: 'from', title: t('columns.from'), render: (_, r) => valueText(byKey.get(r.key), r.from, lang) },
            {
              key: 'to',
              title: t('columns.to'),
              render: (_, r) => <strong>{valueText(byKey.get(r.key), r.to, lang)}</strong>,
            },
          ]}
        />
      </Modal>
    </>
  );
}

function FieldInput({
  field,
  value,
  onChange,
  disabled,
}: {
  field: SettingField;
  value: FieldValue;
  onChange: (v: FieldValue) => void;
  disabled: boolean;
}) {
  const lang = useLang();
  const id = `setting-${field.key}`;
  const testId = `setting-field-${field.key}`;
  if (field.type === 'enum')
    return (
      <Select<number>
        id={id}
        value={typeof value === 'number' ? value : undefined}
        options={(field.enumeration ?? []).map((o) => ({ value: o.value, label: o[lang] }))}
        onChange={(v) => onChange(v ?? null)}
        disabled={disabled}
        className={styles.input}
        data-testid={testId}
      />
    );
  if (field.type === 'text')
    return (
      <Input
        id={id}
        value={value === null ? '' : String(value)}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        data-testid={testId}
      />
    );
  return (
    <NumberInput
      id={id}
      value={typeof value === 'number' ? value : null}
      step={field.step ?? undefined}
      onChange={(v) => onChange(v)}
      disabled={disabled}
      className={styles.input}
      data-testid={testId}
    />
  );
}
