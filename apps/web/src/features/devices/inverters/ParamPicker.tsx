/**
 * The day chart's parameter picker (at most 6 parameters, at most 6 saved profiles):
 * a quick profile select, and a dialog with every chartable parameter of the inverter's
 * protocol (boxes lock at 6), the saved profiles (use, delete) and "save as profile" (a profile
 * of the same name is replaced). Profiles are the account's own (inverter/params/custom).
 */
import { DeleteOutlined, SlidersOutlined } from '@ant-design/icons';
import { Alert, App, Button, Checkbox, Divider, Empty, Flex, Modal, Popconfirm, Select, Tag, Typography } from 'antd';
import { useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { ShellContext } from '../../../app/shell/shellContext.ts';
import { SafeInput } from '../../../components/SafeInput.tsx';
import ui from '../../../components/ui.module.css';
import { displayUnit } from '../../../lib/format.ts';
import styles from '../shared/devices.module.css';
import type { InverterParams, SavedProfile } from '../shared/types.ts';
import { useParamProfiles, useSaveProfiles } from './inverterQueries.ts';
import {
  applyProfile,
  MAX_PARAMS,
  MAX_PROFILES,
  PROFILE_NAME_MAX,
  paramLocked,
  replacesProfile,
  toggleParam,
  upsertProfile,
  withoutProfile,
} from './paramProfiles.ts';

export function ParamPicker({
  params,
  selected,
  onApply,
}: {
  params: InverterParams | undefined;
  selected: readonly string[];
  onApply: (keys: string[]) => void;
}) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const profiles = useParamProfiles();
  const [open, setOpen] = useState(false);
  const available = useMemo(() => new Set((params?.params ?? []).map((p) => p.key)), [params]);
  const list = profiles.data ?? [];

  const use = (profile: SavedProfile) => {
    const { params: keys, missing } = applyProfile(profile, available);
    if (keys.length === 0) {
      message.warning(t('params.profileUnavailable', { name: profile.name }));
      return;
    }
    if (missing.length) message.info(t('params.profileMissing', { count: missing.length }));
    onApply(keys);
  };

  return (
    <>
      <Select<number>
        size="middle"
        value={null as unknown as number}
        placeholder={t('params.profiles')}
        options={list.map((p) => ({ value: p.id, label: p.name }))}
        onChange={(id) => {
          const profile = list.find((p) => p.id === id);
          if (profile) use(profile);
        }}
        notFoundContent={t('params.noProfiles')}
        className={styles.profileSelect}
        aria-label={t('params.profiles')}
        data-testid="profile-select"
      />
      <Button icon={<SlidersOutlined />} onClick={() => setOpen(true)} disabled={!params} data-testid="param-picker-open">
        {t('params.button', { count: selected.length, max: MAX_PARAMS })}
      </Button>
      {params && (
        <PickerDialog
          open={open}
          params={params}
          selected={selected}
          profiles={list}
          onClose={() => setOpen(false)}
          onApply={(keys) => {
            onApply(keys);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function PickerDialog({
  open,
  params,
  selected,
  profiles,
  onClose,
  onApply,
}: {
  open: boolean;
  params: InverterParams;
  selected: readonly string[];
  profiles: readonly SavedProfile[];
  onClose: () => void;
  onApply: (keys: string[]) => void;
}) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const readOnly = useContext(ShellContext)?.profile.readOnly ?? false;
  const save = useSaveProfiles();
  const [draft, setDraft] = useState<string[]>([...selected]);
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Each opening starts from what the chart shows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the dialog opens
  useEffect(() => {
    if (!open) return;
    setDraft([...selected]);
    setSearch('');
  }, [open]);
  const max = Math.min(params.maxSelected || MAX_PARAMS, MAX_PARAMS);
  const maxProfiles = Math.min(params.maxProfiles || MAX_PROFILES, MAX_PROFILES);
  const available = useMemo(() => new Set(params.params.map((p) => p.key)), [params]);
  const byKey = useMemo(() => new Map(params.params.map((p) => [p.key, p])), [params]);

  const shown = params.params.filter((p) => {
    const q = search.trim().toLocaleLowerCase();
    return !q || p.name.toLocaleLowerCase().includes(q) || p.key.toLocaleLowerCase().includes(q);
  });
  const replacing = replacesProfile(profiles, name);
  const full = profiles.length >= maxProfiles && !replacing;

  const saveProfile = async () => {
    const next = upsertProfile(profiles, name, draft, maxProfiles);
    if ('problem' in next) {
      setNameError(t(`params.problem.${next.problem}`, { max: maxProfiles }));
      return;
    }
    setSaving(true);
    try {
      await save(next.profiles);
      message.success(t(replacing ? 'params.replaced' : 'params.saved', { name: name.trim() }));
      setName('');
      setNameError(null);
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) setNameError(err.message);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (profile: SavedProfile) => {
    try {
      await save(withoutProfile([...profiles], profile.id));
      message.success(t('params.deleted', { name: profile.name }));
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.error(err.message);
    }
  };

  return (
    <Modal
      open={open}
      title={t('params.title')}
      width={780}
      onCancel={onClose}
      footer={[
        <Button key="defaults" onClick={() => setDraft([])} data-testid="param-defaults">
          {t('params.defaults')}
        </Button>,
        <Button key="cancel" onClick={onClose}>
          {t('common:cancel')}
        </Button>,
        <Button key="apply" type="primary" onClick={() => onApply(draft)} data-testid="param-apply">
          {t('params.apply')}
        </Button>,
      ]}
      data-testid="param-dialog"
    >
      <Flex vertical gap={12}>
        <Alert
          type={draft.length >= max ? 'warning' : 'info'}
          showIcon
          title={<span data-testid="param-count">{t('params.count', { count: draft.length, max })}</span>}
          description={draft.length === 0 ? t('params.defaultsNote') : undefined}
        />
        {draft.length > 0 && (
          <Flex gap={6} wrap data-testid="param-chosen">
            {draft.map((k) => (
              <Tag key={k} closable onClose={() => setDraft((d) => d.filter((x) => x !== k))} color="blue">
                {byKey.get(k)?.name ?? k}
              </Tag>
            ))}
          </Flex>
        )}
        <SafeInput
          value={search}
          onChange={setSearch}
          allowClear
          placeholder={t('params.search')}
          aria-label={t('params.search')}
          data-testid="param-search"
        />
        <div className={styles.paramOptions} data-testid="param-options">
          <Flex wrap gap="6px 12px">
            {shown.map((p) => (
              <Checkbox
                key={p.key}
                checked={draft.includes(p.key)}
                disabled={paramLocked(draft, p.key, max)}
                onChange={() => setDraft((d) => toggleParam(d, p.key, max))}
                className={styles.paramOption}
                data-testid={`param-${p.key}`}
              >
                <Typography.Text ellipsis className={styles.paramName} title={p.name}>
                  {p.name}
                  {p.unit ? <Typography.Text type="secondary"> ({displayUnit(p.unit)})</Typography.Text> : null}
                </Typography.Text>
              </Checkbox>
            ))}
          </Flex>
        </div>

        <Divider className={styles.paramDivider} titlePlacement="start" plain>
          {t('params.savedTitle', { count: profiles.length, max: maxProfiles })}
        </Divider>
        {profiles.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('params.noProfiles')} className={ui.flush} />
        ) : (
          <Flex vertical data-testid="profile-list" className={styles.profileList}>
            {profiles.map((p) => {
              const { params: usable, missing } = applyProfile(p, available);
              return (
                <Flex key={p.id} align="center" gap={8} data-testid={`profile-${p.name}`} className={styles.profile}>
                  <Flex vertical className={`${ui.shrink} ${ui.grow}`}>
                    <Typography.Text strong>{p.name}</Typography.Text>
                    <Typography.Text type="secondary" ellipsis className={ui.note}>
                      {p.params.map((k) => byKey.get(k)?.name ?? k).join(', ')}
                      {missing.length > 0 && ` · ${t('params.notHere', { count: missing.length })}`}
                    </Typography.Text>
                  </Flex>
                  <Button
                    size="small"
                    disabled={usable.length === 0}
                    onClick={() => setDraft(usable)}
                    data-testid={`profile-use-${p.name}`}
                  >
                    {t('params.use')}
                  </Button>
                  {!readOnly && (
                    <Popconfirm
                      title={t('params.deleteConfirm', { name: p.name })}
                      okText={t('actions.delete')}
                      okButtonProps={{ danger: true, 'data-testid': 'profile-delete-ok' }}
                      cancelText={t('common:cancel')}
                      onConfirm={() => remove(p)}
                    >
                      <Button
                        size="small"
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('params.delete', { name: p.name })}
                        data-testid={`profile-delete-${p.name}`}
                      />
                    </Popconfirm>
                  )}
                </Flex>
              );
            })}
          </Flex>
        )}
        {readOnly ? (
          <Typography.Text type="secondary">{t('params.readOnly')}</Typography.Text>
        ) : (
          <Flex vertical gap={4}>
            <Flex gap={8}>
              <SafeInput
                value={name}
                onChange={(v) => {
                  setName(v);
                  setNameError(null);
                }}
                maxLength={PROFILE_NAME_MAX}
                placeholder={t('params.profileName')}
                aria-label={t('params.profileName')}
                status={nameError ? 'error' : undefined}
                className={ui.grow}
                data-testid="profile-name"
              />
              <Button
                onClick={() => void saveProfile()}
                loading={saving}
                disabled={draft.length === 0 || !name.trim() || full}
                data-testid="profile-save"
              >
                {t(replacing ? 'params.replace' : 'params.save')}
              </Button>
            </Flex>
            {nameError ? (
              <Typography.Text type="danger" data-testid="profile-error">
                {nameError}
              </Typography.Text>
            ) : full ? (
              <Typography.Text type="warning" data-testid="profile-full">
                {t('params.problem.tooMany', { max: maxProfiles })}
              </Typography.Text>
            ) : draft.length === 0 ? (
              <Typography.Text type="secondary">{t('params.chooseFirst')}</Typography.Text>
            ) : null}
          </Flex>
        )}
      </Flex>
    </Modal>
  );
}
